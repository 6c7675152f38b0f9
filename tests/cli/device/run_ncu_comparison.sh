#!/usr/bin/env bash
# On the GPU machine (through the device tool, see docs/cli.md): the 240-launch CUDA workload run
# plain, under `opengpa profile --api cuda` and under `ncu --metrics <same metrics> --csv`, with wall
# times, plus (unless SKIP_LIST=1) the live CUDA list/passes through libGPUPerfAPICUDA.so.
#
#   run_ncu_comparison.sh BUILD [TAG]     environment: METRICS (comma separated), NCU_FLAGS (extra ncu flags)
#
# Files in $OUT: log_TAG.txt, opengpa_TAG.json, ncu_TAG.csv (+ opengpa_TAG.csv and .trace.json for TAG=main,
# list_cuda.csv). Then, here: python3 tests/cli/device/compare_with_ncu.py opengpa_TAG.json ncu_TAG.csv log_TAG.txt
# ncu runs with --clock-control none: it must not lock the clocks (project rule), and opengpa does not.
set -uo pipefail
build=${1:-build-device-cli}
tag=${2:-main}
out=${OUT:-/tmp/opengpa-ncu}
mkdir -p "$out"
exec > >(tee "$out/log_$tag.txt") 2>&1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
metrics=${METRICS:-gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,sm__cycles_active.avg,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum}
workload=$build/workload/cuda_kernel_workload
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.3f}')"; }

echo "== $tag: metrics $metrics; extra ncu flags: ${NCU_FLAGS:-none}"
nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
ncu --version | tail -n 1

t0=$(now); "$workload" > /dev/null; t1=$(now)
echo "TIME plain $(elapsed "$t0" "$t1")"

if [[ -z ${SKIP_LIST:-} ]]; then
  echo "== opengpa list --api cuda (live context)"
  "$build/bin/opengpa" list --api cuda --format csv -o "$out/list_cuda.csv"; echo "list rc=$?"
  "$build/bin/opengpa" list --api cuda > "$out/list.txt"; echo "list rc=$?"; head -n 4 "$out/list.txt"; rm -f "$out/list.txt"
  echo "== opengpa passes --api cuda --hardware"
  "$build/bin/opengpa" passes --api cuda --hardware --counters "$metrics"; echo "passes rc=$?"
fi

echo "== opengpa profile"
t2=$(now)
TMPDIR=$out timeout 150 "$build/bin/opengpa" profile --api cuda --counters "$metrics" -o "$out/opengpa_$tag" --keep-stream \
  -- "$workload" > "$out/profile_stdout.txt"
rc=$?; t3=$(now)
echo "TIME opengpa $(elapsed "$t2" "$t3") rc=$rc"
grep -v '^launch ' "$out/profile_stdout.txt"; rm -f "$out/profile_stdout.txt"
# The raw stream only matters when the profile failed.
if [[ $rc -eq 0 ]]; then rm -f "$out"/opengpa-samples-*; fi
if [[ $tag != main ]]; then rm -f "$out/opengpa_$tag.csv" "$out/opengpa_$tag.trace.json"; fi

echo "== ncu"
t4=$(now)
# shellcheck disable=SC2086  # NCU_FLAGS is a list of flags
timeout 240 ncu --metrics "$metrics" --csv --print-units base --clock-control none ${NCU_FLAGS:-} \
  --log-file "$out/ncu_$tag.csv" "$workload" > /dev/null
rc=$?; t5=$(now)
echo "TIME ncu $(elapsed "$t4" "$t5") rc=$rc"
ls -la "$out"
