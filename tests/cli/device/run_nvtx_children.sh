#!/usr/bin/env bash
# On the GPU machine (device tool; docs/validation.md has the command and what it printed): `opengpa profile
# --nvtx-include` and child processes on nvtx_children.cu, against ncu on the same program.
#   run_nvtx_children.sh DIR     DIR holds bin/opengpa, lib/ and nvtx_children (built for sm_90)
# Prints each profile's rows (pid, index, kernel, nvtx, instructions) and the checks of check_nvtx_children.py.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/opengpa-nvtx}
work=/tmp/opengpa-nvtx-work
rm -rf "$work"
mkdir -p "$out" "$work/tmp"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export TMPDIR=$work/tmp
unset NVTX_INJECTION64_PATH
program=$dir/nvtx_children
counters=smsp__inst_executed.sum,gpu__time_duration.sum
profile() {  # tag, options...
  local tag=$1
  shift
  echo "== opengpa profile $* (tag $tag)"
  "$dir/bin/opengpa" profile --api cuda -q -f --counters $counters -o "$work/$tag" "$@" -- "$program" 2>&1 | tail -4
}
profile outer --nvtx-include outer
profile mylib --nvtx-include mylib@work
profile all
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
echo "== ncu (all launches, all processes)"
"$ncu" --target-processes all --metrics smsp__inst_executed.sum --csv "$program" >"$work/ncu_all.csv" 2>"$work/ncu_all.err"
echo "ncu exit $?"
echo "== ncu --nvtx-include outer/"
"$ncu" --target-processes all --nvtx --nvtx-include "outer/" --metrics smsp__inst_executed.sum --csv "$program" \
  >"$work/ncu_outer.csv" 2>"$work/ncu_outer.err"
echo "ncu exit $?"
python3 "$here/check_nvtx_children.py" "$work"
tar czf "$out/nvtx_children.tgz" -C "$work" --exclude tmp . 2>/dev/null
