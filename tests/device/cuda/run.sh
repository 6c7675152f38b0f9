#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after build.sh ran on the development machine:
#   tests/device/cuda/run.sh [bin-dir]      (default build-device-cuda/out)
# 1. cuda_device_check: libGPUPerfAPICUDA.so against computed truth (PASS/FAIL lines), raw metrics to CSV;
# 2. ncu --metrics on the same kernels (cuda_device_check --workload) and the comparison (compare_ncu.py);
# 3. the CUDA sample.
# Results go to $RESULTS_DIR (default /tmp/opengpa-cuda) and, as one archive, to $OUT when it is set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
bin=$(cd "${1:-build-device-cuda/out}" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-cuda}
mkdir -p "$results"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv | tee "$results/gpu.txt"
# libcupti loads libnvperf_host.so from the loader's path: put CUPTI's folder on it.
cupti=$(ldconfig -p | awk '/libcupti.so.13 /{print $NF; exit}')
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
echo "libcupti: ${cupti:-not found}"
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

ffma_static=$(cuobjdump -sass "$bin/cuda_device_check" 2>/dev/null | awk '/Function :/{f=/ffma_kernel/} f' | grep -cE '\sFFMA\s')
echo "FFMA instructions in ffma_kernel's SASS (static): $ffma_static (4 chains x unroll 4 = 16 in the loop body, plus the remainder loop)"

echo "== 1. cuda_device_check"
"$bin/cuda_device_check" --results "$results" 2>&1 | tee "$results/check.txt"
check_failures=${PIPESTATUS[0]}

echo "== 2. ncu on the same kernels"
metrics=$(python3 -c "import csv;print(','.join(sorted({r['metric'] for r in csv.DictReader(open('$results/gpa_raw.csv'))})))")
ncu --csv --print-units base --cache-control none --clock-control none --metrics "$metrics" \
  --kernel-name regex:'copy_kernel|ffma_kernel|bank_conflict_kernel|l2_reread_kernel|diverge_kernel|l1_reuse_kernel|l1_twice_kernel|flat_kernel' \
  "$bin/cuda_device_check" --workload >"$results/ncu.csv" 2>"$results/ncu_stderr.txt"
echo "ncu exit code: $?"
# The catalog whose formulas the derived counters are checked against: CATALOG, else the repository's.
catalog=${CATALOG:-}
for c in "$root/catalogs/cuda.json"; do [[ -z $catalog && -f $c ]] && catalog=$c; done
python3 "$here/compare_ncu.py" "$results/gpa_raw.csv" "$results/ncu.csv" "$results/gpa_derived.csv" "$catalog" \
  | tee "$results/compare.txt"
compare_failures=${PIPESTATUS[0]}

echo "== 3. sample"
"$bin/opengpa_cuda_sample" 2>&1 | tee "$results/sample.txt"
sample_status=${PIPESTATUS[0]}

echo "failures: check=$check_failures ncu-comparison=$compare_failures sample-exit=$sample_status"
[[ -n ${OUT:-} ]] && cp "$results"/*.txt "$results"/*.csv "$OUT/" 2>/dev/null
exit $((check_failures + compare_failures + sample_status))
