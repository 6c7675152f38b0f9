#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after build.sh ran on the development machine:
#   tests/device/sol/run.sh [bin-dir]      (default build-device-sol/out)
# 1. ncu on the SOL kernels (sol_device_check --workload: each launched once): the SpeedOfLight section
#    and the same throughput metrics by name, plus the breakdown of each unit's SOL (which sub-unit is
#    the busiest), all with --clock-control none (project rule: never touch clocks; OpenGPA does not);
# 2. sol_device_check: the same kernels profiled through libGPUPerfAPICUDA.so's SpeedOfLight group, the
#    bottleneck checks in every rotation of the launch order, and the side-by-side comparison with step 1 and
#    with ncu run again afterwards (PASS/FAIL lines).
# Results go to $RESULTS_DIR (default /tmp/opengpa-sol) and to $OUT when it is set.
set -uo pipefail
bin=$(cd "${1:-build-device-sol/out}" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-sol}
mkdir -p "$results"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv | tee "$results/gpu.txt"
# libcupti loads libnvperf_host.so from the loader's path: put CUPTI's folder on it.
cupti=$(ldconfig -p | awk '/libcupti.so.13 /{print $NF; exit}')
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
echo "libcupti: ${cupti:-not found}"
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ncu --version | tail -n 1
section=$(find / -name SpeedOfLight.section -not -path '/proc/*' 2>/dev/null | head -n 1)
echo "== ncu's SpeedOfLight section ($section): the metrics it reads"
[[ -n $section ]] && grep -E 'Label|Name:' "$section" | head -n 40 | tee "$results/speedoflight_section.txt"

echo "== SASS of the kernels (static instruction counts per function)"
cuobjdump -sass "$bin/sol_device_check" 2>/dev/null | awk '
  /Function :/ { name = $3 }
  /LDS\.128/ { lds128[name]++ } /LDS[ .]/ && !/LDS\.128/ { lds[name]++ } /FFMA/ { ffma[name]++ } /LDG/ { ldg[name]++ }
  END { for (n in ffma) seen[n]; for (n in lds128) seen[n]; for (n in lds) seen[n]; for (n in ldg) seen[n]
        for (n in seen) printf "  %-45s FFMA %4d  LDS.128 %3d  LDS %3d  LDG %3d\n", n, ffma[n], lds128[n], lds[n], ldg[n] }' |
  tee "$results/sass_counts.txt"

metrics=sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__throughput.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed
breakdowns=breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:l1tex__throughput.avg.pct_of_peak_sustained_active
breakdowns+=,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed

echo "== 1. ncu"
timeout 240 ncu --csv --clock-control none --kernel-name regex:'StreamCopy|FfmaLoop|SharedLoads' \
  --section SpeedOfLight --metrics "$metrics,$breakdowns" \
  "$bin/sol_device_check" --workload >"$results/ncu.csv" 2>"$results/ncu_stderr.txt"
ncu_status=$?
echo "ncu exit code: $ncu_status"
if [[ $ncu_status -ne 0 ]]; then  # without the breakdowns, should this ncu refuse them
  timeout 180 ncu --csv --clock-control none --kernel-name regex:'StreamCopy|FfmaLoop|SharedLoads' \
    --section SpeedOfLight --metrics "$metrics" \
    "$bin/sol_device_check" --workload >"$results/ncu.csv" 2>>"$results/ncu_stderr.txt"
  echo "ncu (no breakdowns) exit code: $?"
fi
grep -v '^"' "$results/ncu.csv" | head -n 20
tail -n 5 "$results/ncu_stderr.txt"

echo "== 2. sol_device_check (OpenGPA, every launch order), ncu again afterwards, and the comparison with both"
after="timeout 180 ncu --csv --clock-control none --kernel-name regex:'StreamCopy|FfmaLoop|SharedLoads'"
after+=" --section SpeedOfLight --metrics $metrics $bin/sol_device_check --workload >$results/ncu_after.csv"
after+=" 2>>$results/ncu_stderr.txt"
timeout 480 "$bin/sol_device_check" --csv "$results/gpa.csv" --ncu-csv "$results/ncu.csv" \
  --ncu-after-command "$after" --ncu-after-csv "$results/ncu_after.csv" 2>&1 | tee "$results/check.txt"
failures=${PIPESTATUS[0]}
if [[ $failures -ge 128 ]] && command -v cuda-gdb >/dev/null; then  # a crash: where
  timeout 120 cuda-gdb -batch -ex run -ex bt --args "$bin/sol_device_check" 2>&1 | tail -n 30 | tee "$results/backtrace.txt"
fi
echo "failures: $failures"
[[ -n ${OUT:-} ]] && cp "$results"/*.txt "$results"/*.csv "$OUT/" 2>/dev/null
exit "$failures"
