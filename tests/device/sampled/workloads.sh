#!/usr/bin/env bash
# On the GPU machine: `opengpa profile --mode sampled` on real programs (PyTorch resnet18 + transformer, a GPT-2-style
# generate): the program's time unprofiled and sampled, alternated three times each, and each launch's values
# against the exact mode's for the same launch (no cache flush in either, as the program runs).
#   tests/device/sampled/workloads.sh BIN_DIR   (results in $RESULTS_DIR, default /tmp/opengpa-sampled)
# INTERVAL (µs, default 20), METRICS, ROUNDS, TORCH_ARGS, GPT2_ARGS; RAW_SAMPLES=1 keeps the PM samples around long launches.
set -uo pipefail
bin=$(cd "$1" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-sampled}
mkdir -p "$results"
opengpa=$bin/bin/opengpa
interval=${INTERVAL:-20}
metrics=${METRICS:-dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed}
wall() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wall_time_s"])' "$1"; }
# The program's own time of its measured part (the line it prints on stderr: "... took X s" or "... in X s").
own() { grep -oE "(took|in) [0-9.]+ s" "$1" | tail -n 1 | grep -oE "[0-9.]+"; }
rounds=${ROUNDS:-3}
for workload in "torch_program.py ${TORCH_ARGS:-10 64}" "gpt2_generate.py ${GPT2_ARGS:-20 16 128}"; do
  # shellcheck disable=SC2086
  set -- $workload
  name=${1%.py}
  echo "== $name ($*): the measured part's seconds, unprofiled | sampled ${interval} µs (and the whole process under it)"
  for round in $(seq "$rounds"); do
    python3 "$bin/$@" >/dev/null 2>"$results/${name}_plain.err"
    OPENGPA_PM_SAMPLES_CSV=${RAW_SAMPLES:+$results/${name}_pm_samples.csv} \
      "$opengpa" profile --api cuda -q -f --mode sampled --sampling-interval-us "$interval" --metrics "$metrics" \
      -o "$results/${name}_sampled" -- python3 "$bin/$@" >/dev/null 2>"$results/${name}_sampled.err"
    echo "round $round: $(own "$results/${name}_plain.err") | $(own "$results/${name}_sampled.err") ($(wall "$results/${name}_sampled.json") s)"
  done
  grep -E "PM sampling|own cost|warning|error" "$results/${name}_sampled.err" | head -4
  # RAW_SAMPLES=1: the last round's PM samples around its long launches (raw_window.py), for study away from the GPU.
  if [[ -n ${RAW_SAMPLES:-} ]]; then
    python3 "$bin/raw_window.py" "$results/${name}_pm_samples.csv" "$results/${name}_sampled.csv" \
      "$results/${name}_pm_window.csv" && rm -f "$results/${name}_pm_samples.csv"
  fi
  start=$(date +%s.%N)
  "$opengpa" profile --api cuda -q -f --cache-control none --metrics "$metrics" -o "$results/${name}_exact" -- \
    python3 "$bin/$@" >/dev/null 2>"$results/${name}_exact.err" || tail -3 "$results/${name}_exact.err"
  echo "exact mode: $(python3 -c "print(f'{$(date +%s.%N) - $start:.2f}')") s"
  python3 "$bin/compare_profiles.py" "$results/${name}_sampled.csv" "$results/${name}_exact.csv"
done
tar czf "${OUT:-/tmp}/sampled-results.tgz" -C "$results" . 2>/dev/null
