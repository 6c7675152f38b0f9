#!/usr/bin/env bash
# On the GPU machine: the sampled mode from Python (opengpa.profile(..., per_kernel=True, mode="sampled")) against
# `opengpa profile --mode sampled` on the same PyTorch program with NVTX ranges (python_sampled.py), compared per
# range path by compare_python_cli.py. BIN_DIR is what python_build.sh made (bin/opengpa, lib/, python/, scripts).
#   tests/device/sampled/python_run.sh BIN_DIR   (results in $RESULTS_DIR, default /tmp/opengpa-sampled-python)
set -uo pipefail
bin=$(cd "$1" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-sampled-python}
mkdir -p "$results"
export OPENGPA_LIBRARY_DIR=$bin/lib PYTHONPATH=$bin/python PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s.%N)
"$bin/bin/opengpa" profile --api cuda -f --mode sampled --sampling-interval-us 20 -o "$results/cli" -- \
  python3 "$bin/python_sampled.py" plain >/dev/null 2>"$results/cli.err"
echo "CLI sampled: rc $? in $(python3 -c "print(f'{$(date +%s.%N) - $start:.2f}')") s"
grep -E "PM sampling|own cost|warning|error" "$results/cli.err" | head -4
start=$(date +%s.%N)
python3 "$bin/python_sampled.py" python "$results/python.json" >"$results/python.out" 2>"$results/python.err"
echo "Python sampled (two sessions): rc $? in $(python3 -c "print(f'{$(date +%s.%N) - $start:.2f}')") s"
cat "$results/python.out"
grep -v "^$" "$results/python.err" | tail -8
python3 "$bin/compare_python_cli.py" "$results/cli.json" "$results/python.json"
status=$?
cp "$results"/*.json "$results"/*.err "$results"/*.out "${OUT:-/tmp}/" 2>/dev/null
exit $status
