#!/usr/bin/env bash
# On the GPU machine: `opengpa profile --mode sampled` against the truth (sampled_truth) and the exact mode, at
# several intervals and metric sets, and the program's time with and without it (sampled_truth, PyTorch).
#   tests/device/sampled/run.sh BIN_DIR   (results in $RESULTS_DIR, default /tmp/opengpa-sampled)
set -uo pipefail
bin=$(cd "$1" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-sampled}
mkdir -p "$results"
opengpa=$bin/bin/opengpa
rounds=${ROUNDS:-10}
seconds() { python3 -c 'import sys,time,subprocess; t=time.time(); r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL).returncode; print(f"{time.time()-t:.3f}", r)' "$@"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$bin/sampled_truth" "$rounds" >"$results/truth.txt"
echo "== unprofiled sampled_truth: $(seconds "$bin/sampled_truth" "$rounds") s"
echo "== exact mode (dram__bytes_read.sum, L2 flushed before each launch)"
"$opengpa" profile --api cuda -q -f --metrics dram__bytes_read.sum -o "$results/exact" -- "$bin/sampled_truth" "$rounds" >/dev/null 2>"$results/exact.err" || tail -3 "$results/exact.err"
for interval in ${INTERVALS:-5 10 20 40}; do
  echo "== sampled, DRAM read+write, ${interval} µs"
  start=$(date +%s.%N)
  "$opengpa" profile --api cuda -f --mode sampled --sampling-interval-us "$interval" -o "$results/s$interval" -- \
    "$bin/sampled_truth" "$rounds" >/dev/null 2>"$results/s$interval.err"
  echo "rc $? in $(python3 -c "print(f'{$(date +%s.%N) - $start:.2f}')") s"
  grep -E "PM sampling|own cost|warning|error" "$results/s$interval.err" | head -5
  python3 "$bin/compare.py" "$results/truth.txt" "$results/s$interval.csv" "$results/exact.csv"
done
big=dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.avg,gpc__cycles_elapsed.max,lts__t_bytes.sum
for interval in ${BIG_INTERVALS:-50 100}; do
  echo "== sampled, 5 metrics (SM and L2 too), ${interval} µs"
  "$opengpa" profile --api cuda -f --mode sampled --sampling-interval-us "$interval" --metrics "$big" -o "$results/b$interval" -- \
    "$bin/sampled_truth" "$rounds" >/dev/null 2>"$results/b$interval.err"
  echo "rc $?"
  grep -E "PM sampling|own cost|warning|error" "$results/b$interval.err" | head -5
  python3 "$bin/compare.py" "$results/truth.txt" "$results/b$interval.csv" "$results/exact.csv"
done
if python3 -c "import torch, torchvision" 2>/dev/null; then
  steps=${TORCH_STEPS:-30}
  echo "== PyTorch ($steps steps): unprofiled / sampled 20 µs / sampled 10 µs, seconds"
  for run in 1 2; do echo "unprofiled: $(seconds python3 "$bin/torch_program.py" "$steps")"; done
  for interval in 20 10; do
    start=$(date +%s.%N)
    "$opengpa" profile --api cuda -f --mode sampled --sampling-interval-us "$interval" -o "$results/torch$interval" -- \
      python3 "$bin/torch_program.py" "$steps" >/dev/null 2>"$results/torch$interval.err"
    echo "sampled $interval µs: rc $? in $(python3 -c "print(f'{$(date +%s.%N) - $start:.2f}')") s; $(grep -c . "$results/torch$interval.csv") csv lines"
    grep -E "PM sampling|own cost|warning|error" "$results/torch$interval.err" | head -4
  done
fi
tar czf "${OUT:-/tmp}/sampled-truth.tgz" -C "$results" . 2>/dev/null
