#!/usr/bin/env bash
# Issue 36: the sampled mode's Speed-of-Light columns (`--metrics SpeedOfLight`, catalogs/pm_sampled_sol.json) on
# the PyTorch program against the exact mode: the same four PM unit throughputs measured per launch by kernel
# replay (what the sampled columns must read), and the exact mode's own SOL_* (ncu's throughput metrics, 22 passes
# a launch on GH100) beside them for information. compare_sol.py matches the launches by process and index.
#   tests/device/sampled/sol.sh STAGE      (STAGE from build.sh; WORKLOAD, default "torch_program.py 10 64";
#   NCU=0 skips the exact mode's own SOL)
set -uo pipefail
stage=$(cd "${1:?usage: sol.sh STAGE}" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-sol}
mkdir -p "$results"
opengpa=$stage/bin/opengpa
triage=TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed,SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed,LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
# shellcheck disable=SC2086
set -- ${WORKLOAD:-torch_program.py 10 64}
echo "== sampled, --metrics SpeedOfLight (the interval it picks)"
"$opengpa" profile --api cuda -f --mode sampled --metrics SpeedOfLight -o "$results/sampled" -- \
  python3 "$stage/$1" "${@:2}" >/dev/null 2>"$results/sampled.err" || tail -n 3 "$results/sampled.err"
grep -E "sampling every|PM sampling on|own cost" "$results/sampled.err"
echo "== exact, the four unit throughputs by kernel replay"
"$opengpa" profile --api cuda -q -f --replay-mode kernel --cache-control none --metrics "$triage" \
  -o "$results/triage" -- python3 "$stage/$1" "${@:2}" >/dev/null 2>"$results/triage.err" ||
  tail -n 3 "$results/triage.err"
ncu_csv=()
if [[ ${NCU:-1} != 0 ]]; then
  echo "== exact, the exact mode's own SOL (kernel replay)"
  "$opengpa" profile --api cuda -q -f --replay-mode kernel --cache-control none \
    --metrics SOL_SM,SOL_Memory,SOL_L1TEX,SOL_L2,SOL_DRAM,GPUBottleneck -o "$results/ncu" -- \
    python3 "$stage/$1" "${@:2}" >/dev/null 2>"$results/ncu.err" || tail -n 3 "$results/ncu.err"
  [[ -s $results/ncu.csv ]] && ncu_csv=("$results/ncu.csv")
fi
python3 "$stage/compare_sol.py" "$results/sampled.csv" "$results/triage.csv" "${ncu_csv[@]}"
tar czf "${OUT:-/tmp}/sol-results.tgz" --exclude='*.trace.json' -C "$results" . 2>/dev/null
