#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after build.sh ran on the development machine:
#   tests/device/gputime/run.sh [bin-dir]      (default build-device-gputime/out)
# 1. ncu on the kernels (gputime_device_check --workload: each once): gpu__time_duration and the SM/DRAM ratios;
# 2. gputime_device_check: the same kernels through libGPUPerfAPICUDA.so in every launch order, against step 1;
# 3. `opengpa profile --api cuda` on the same launches (auto range, kernel replay), against step 1.
# Results go to $RESULTS_DIR (default /tmp/opengpa-gputime) and to $OUT when it is set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "${1:-build-device-gputime/out}" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-gputime}
mkdir -p "$results"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv | tee "$results/gpu.txt"
cupti=$(ldconfig -p | awk '/libcupti.so.13 /{print $NF; exit}')
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ncu --version | tail -n 1
echo "== 1. ncu"
metrics=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.avg,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,gr__cycles_active.avg,gr__cycles_elapsed.avg
timeout 200 ncu --csv --print-units base --cache-control none --clock-control none --metrics "$metrics" \
  "$bin/gputime_device_check" --workload >"$results/ncu_gputime.csv" 2>"$results/ncu_gputime_stderr.txt"
echo "ncu exit code: $?"
echo "== 2. gputime_device_check (libGPUPerfAPICUDA.so, every launch order)"
timeout 300 "$bin/gputime_device_check" --ncu-csv "$results/ncu_gputime.csv" --csv "$results/gpa_gputime.csv" 2>&1 |
  tee "$results/check_gputime.txt"
failures=${PIPESTATUS[0]}
echo "== 3. opengpa profile --api cuda on the same launches"
timeout 200 "$bin/bin/opengpa" profile --api cuda -o "$results/profile" \
  --counters gpu__time_duration.sum,gr__cycles_active.avg,gr__cycles_elapsed.avg -q -- "$bin/gputime_device_check" --workload \
  >"$results/profile_stdout.txt" 2>&1
echo "opengpa profile exit code: $?"
python3 "$here/compare_profile.py" "$results/profile.csv" "$results/ncu_gputime.csv" 2>&1 |
  tee "$results/compare_profile.txt"
failures=$((failures + ${PIPESTATUS[0]}))
echo "failures: $failures"
[[ -n ${OUT:-} ]] && cp "$results"/*.txt "$results"/*.csv "$OUT/" 2>/dev/null
exit "$failures"
