#!/usr/bin/env bash
# --range-mode nvtx on the GPU machine (device tool): many_launches with every 4 launches (add, ffma, scale,
# fill on 64 MiB arrays, larger than the H100's L2) inside an NVTX range "step", profiled per kernel and per
# NVTX range; nvtx_range_check.py compares each range with the sum of its kernels. Also the filters on
# ranges (--nvtx-include, --launch-skip, --launch-count).
#   nvtx_range_check.sh DIR     DIR as run.sh's, plus nvtx_range_check.py
set -uo pipefail
D=$(cd "${1:?DIR}" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=/tmp/nvtx-range-check; rm -rf $out; mkdir -p $out/tmp; export TMPDIR=$out/tmp
one=gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
program=("$D/workload/many_launches" 400 16777216 4)
now() { date +%s.%N; }
run() {  # run TAG opengpa-options...
  local tag=$1; shift
  t0=$(now)
  timeout 120 $D/bin/opengpa profile --api cuda -q -f -o $out/$tag "$@" --counters $one -- "${program[@]}" >/dev/null 2>$out/$tag.err
  rc=$?; t1=$(now)
  echo "TIME $tag $(python3 -c "print(f'{$t1-$t0:.3f}')") rc=$rc; samples: $(($(wc -l < $out/$tag.csv) - 1))"
  grep -v 'timing:' $out/$tag.err | sort | uniq -c | sort -rn | head -n 4
}
run kernels
run ranges --range-mode nvtx
run kernels_nocache --cache-control none
run ranges_nocache --range-mode nvtx --cache-control none
run ranges_filtered --range-mode nvtx --nvtx-include step --launch-skip 10 --launch-count 5
echo "== flush before every kernel / before every range"
python3 $D/nvtx_range_check.py $out/kernels.csv $out/ranges.csv 4
echo "== no flush"
python3 $D/nvtx_range_check.py $out/kernels_nocache.csv $out/ranges_nocache.csv 4
echo "== filtered: indexes $(cut -d, -f2 $out/ranges_filtered.csv | tail -n +2 | tr '\n' ' ')"
tar -C $out --exclude tmp -czf ${OUT:-/tmp}/nvtx_range_check.tgz .
