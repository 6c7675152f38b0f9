#!/usr/bin/env bash
# `opengpa profile --mode sampled --nvtx-include` on the GPU: python_sampled.py's steps push NVTX ranges
# (step/copy, step/mm, step/relu); the run keeps the rows launched inside "mm" and no other, every launch having
# taken its share of the samples; with --launch-count 5 the first five of them. Prints PASS/FAIL lines.
#   tests/device/sampled/nvtx_include.sh STAGE    (STAGE from python_build.sh)
set -uo pipefail
stage=$(cd "${1:?usage: nvtx_include.sh STAGE}" && pwd)
out=${OUT:-/tmp/opengpa-nvtx-include}
mkdir -p "$out"
status=0
for count in 0 5; do
  "$stage/bin/opengpa" profile --api cuda --mode sampled --nvtx-include mm --launch-count "$count" -f \
    -o "$out/mm_$count" -- python3 "$stage/python_sampled.py" plain >"$out/mm_$count.out" 2>&1 || status=1
  tail -n 3 "$out/mm_$count.out"
  python3 - "$out/mm_$count.json" "$count" <<'PY' || status=1
import json
import sys
rows = [r for r in json.load(open(sys.argv[1]))["samples"]]
count = int(sys.argv[2])
in_mm = all("mm" in (r.get("nvtx") or []) for r in rows)
values = all(r.get("values", {}).get("dram__bytes_read.sum") not in (None, 0) for r in rows)
want = count if count else 20
ok = len(rows) == want and in_mm and values
print(f"{'PASS' if ok else 'FAIL'} --nvtx-include mm --launch-count {count}: {len(rows)} rows (want {want}), "
      f"every row in mm: {in_mm}, every row has DRAM bytes: {values}; indices {[r.get('index') for r in rows][:6]}")
sys.exit(0 if ok else 1)
PY
done
exit $status
