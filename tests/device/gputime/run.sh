#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after build.sh ran on the development machine:
#   tests/device/gputime/run.sh [bin-dir]      (default build-device-gputime/out)
# 1. ncu on the kernels (gputime_device_check --workload: each once): gpu__time_duration and the SM/DRAM ratios;
# 2. gputime_device_check: the same kernels through libGPUPerfAPICUDA.so in every launch order, against their
#    unprofiled CUPTI activity durations (and step 1's ratios);
# 3. `opengpa profile --api cuda` on the same launches (auto range): its durations against step 1, its GPUTime
#    against step 2's activity durations;
# 4. issue 36's multi-pass set on the same launches (replay_check.py): auto refuses it, its one-pass metrics come
#    out exact, kernel replay's values are printed beside them.
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
  --counters gpu__time_duration.sum,gr__cycles_active.avg,gr__cycles_elapsed.avg,GPUTime -q -- \
  "$bin/gputime_device_check" --workload \
  >"$results/profile_stdout.txt" 2>&1
echo "opengpa profile exit code: $?"
python3 "$here/compare_profile.py" "$results/profile.csv" "$results/ncu_gputime.csv" "$results/gpa_gputime.csv" 2>&1 |
  tee "$results/compare_profile.txt"
failures=$((failures + ${PIPESTATUS[0]}))
echo "== 4. issue 36's multi-pass set: auto refuses it; its one-pass metrics by auto; the whole set by kernel replay"
workload=("$bin/gputime_device_check" --workload)
"$bin/gputime_device_check" --describe >"$results/describe.csv"
set36=smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,dram__bytes_read.sum
set36+=,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed
set36+=,gpu__time_duration.sum
one_pass=smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,dram__bytes_read.sum
one_pass+=,dram__bytes_write.sum,lts__t_request_hit_rate.pct,gpu__time_duration.sum
timeout 60 "$bin/bin/opengpa" profile --api cuda -q -f -o "$results/set_auto" --counters "$set36" -- "${workload[@]}" \
  >/dev/null 2>"$results/set_auto_stderr.txt"
echo $? >"$results/set_auto_exit.txt"
timeout 120 "$bin/bin/opengpa" profile --api cuda -q -f -o "$results/set_one_pass" --counters "$one_pass" -- \
  "${workload[@]}" >/dev/null 2>"$results/set_one_pass_stderr.txt"
timeout 300 "$bin/bin/opengpa" profile --api cuda -q -f --replay-mode kernel -o "$results/set_kernel" \
  --counters "$set36" -- "${workload[@]}" >/dev/null 2>"$results/set_kernel_stderr.txt"
python3 "$here/replay_check.py" "$results/describe.csv" "$results/set_auto_exit.txt" "$results/set_auto_stderr.txt" \
  "$results/set_one_pass.csv" "$results/set_kernel.csv" "$results/set_kernel_stderr.txt" 2>&1 |
  tee "$results/replay_check.txt"
failures=$((failures + ${PIPESTATUS[0]}))
echo "failures: $failures"
[[ -n ${OUT:-} ]] && cp "$results"/*.txt "$results"/*.csv "$OUT/" 2>/dev/null
exit "$failures"
