#!/usr/bin/env bash
# Issue 36: the whole program's time under `opengpa profile --mode sampled` against the same program unprofiled,
# whole processes (Python's start and import included), rounds alternated so that drifts of the machine fall on both.
# The profiler's own time around the program (set-up, drain, attribution) is printed from its notes.
#   tests/device/sampled/program_time.sh STAGE     (STAGE from build.sh; results in $RESULTS_DIR; ROUNDS, INTERVAL,
#   TORCH_ARGS, GPT2_ARGS; ONLY=NAME runs one workload: trivial, torch_program or gpt2_generate)
set -uo pipefail
stage=$(cd "$1" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-program-time}
mkdir -p "$results"
opengpa=$stage/bin/opengpa
interval=${INTERVAL:-20}
rounds=${ROUNDS:-3}
now() { date +%s.%N; }
seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$2"; }
trivial=(-c "import torch; x = torch.ones(1 << 20, device='cuda'); print((x * 2).sum().item())")
for workload in "trivial" "torch_program.py ${TORCH_ARGS:-30 64}" "gpt2_generate.py ${GPT2_ARGS:-60 16 128}"; do
  # shellcheck disable=SC2086
  set -- $workload
  name=${1%.py}
  [[ -n ${ONLY:-} && $name != "$ONLY" ]] && continue  # ONLY=gpt2_generate: that workload alone
  if [[ $name == trivial ]]; then args=("${trivial[@]}"); else args=("$stage/$1" "${@:2}"); fi
  plain=() sampled=()
  for round in $(seq "$rounds"); do
    t0=$(now)
    python3 "${args[@]}" >/dev/null 2>"$results/${name}_plain.err"
    t1=$(now)
    "$opengpa" profile --api cuda -f --mode sampled --sampling-interval-us "$interval" \
      -o "$results/${name}_sampled" -- python3 "${args[@]}" >/dev/null 2>"$results/${name}_sampled.err"
    t2=$(now)
    plain+=("$(seconds "$t0" "$t1")")
    sampled+=("$(seconds "$t1" "$t2")")
    echo "$name round $round: unprofiled ${plain[-1]} s | sampled ${sampled[-1]} s"
  done
  python3 - "$name" "${plain[*]}" "${sampled[*]}" <<'PY'
import statistics
import sys
name, plain, sampled = sys.argv[1], [float(v) for v in sys.argv[2].split()], [float(v) for v in sys.argv[3].split()]
p, s = statistics.median(plain), statistics.median(sampled)
print(f"{name}: median unprofiled {p:.3f} s, sampled {s:.3f} s: x{s / p:.3f} (+{s - p:.3f} s); "
      f"best {min(plain):.3f} / {min(sampled):.3f} s: x{min(sampled) / min(plain):.3f}")
PY
  grep -E "own time|own cost|covered|launch|waited" "$results/${name}_sampled.err" | head -8
done
tar czf "${OUT:-/tmp}/program-time-results.tgz" -C "$results" . 2>/dev/null
