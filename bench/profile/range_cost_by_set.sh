#!/usr/bin/env bash
# Issue 12, on the GPU machine (device tool): the default build's cost per launch (auto ranges) on the
# many-launch program with the default one-pass set and with GPA's GPUTime,FetchSize,WriteSize,L2CacheHit
# (no SM counters), with and without the L2 flush, and launches as user ranges with the GPA set: does CUPTI's
# per-range cost depend on the metrics?
#   range_cost_by_set.sh DIR [LAUNCHES]     DIR as run.sh's, plus summarize_csv.py
set -uo pipefail
D=$(cd "${1:?DIR}" && pwd)
N=${2:-5000}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=/tmp/range-cost; rm -rf $out; mkdir -p $out/tmp; export TMPDIR=$out/tmp
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
gpa=GPUTime,FetchSize,WriteSize,L2CacheHit
now() { date +%s.%N; }
t0=$(now); $D/workload/many_launches $N >/dev/null; t1=$(now); echo "TIME plain_many $(python3 -c "print(f'{$t1-$t0:.3f}')")"
run() {  # run TAG "ENV..." opengpa-options...
  local tag=$1 envs=$2; shift 2
  t0=$(now)
  env $envs timeout 150 $D/bin/opengpa profile --api cuda -q -f -o $out/$tag "$@" -- $D/workload/many_launches $N >/dev/null 2>$out/$tag.err
  rc=$?; t1=$(now)
  echo "TIME $tag $(python3 -c "print(f'{$t1-$t0:.3f}')") rc=$rc [$envs $*]"
  grep -v 'timing:' $out/$tag.err | sort | uniq -c | sort -rn | head -n 3
  grep 'timing:' $out/$tag.err | tail -n 1 | sed 's/.*so far: /  so far: /'
  python3 $D/summarize_csv.py $out/$tag.csv
}
run default_set "" --counters $one
run default_set_nocache "" --cache-control none --counters $one
run gpa_set "" --counters $gpa
run gpa_set_nocache "" --cache-control none --counters $gpa
run gpa_set_user_ranges "OPENGPA_PROFILE_RANGES=user" --counters $gpa
tar -C $out --exclude tmp -czf ${OUT:-/tmp}/range_cost_by_set.tgz .
