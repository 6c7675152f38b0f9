#!/usr/bin/env bash
# Which counters make a range (and the flush's context switch) expensive: one SM counter alone.
# DIR (this script's folder) as run.sh's: bin/opengpa, lib/, workload/many_launches. Device tool, carry DIR.
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64 PYTHONUNBUFFERED=1
o=/tmp/order; mkdir -p $o
now() { date +%s.%N; }
run() { local tag=$1 envs=$2; shift 2; local t0=$(now)
  env $envs $D/bin/opengpa profile --api cuda -q -f -o $o/$tag "$@" > /dev/null 2> $o/$tag.err; local rc=$?
  echo "TIME $tag $(python3 -c "print(f'{$(now)-$t0:.2f}')") rc=$rc rows=$(($(wc -l < $o/$tag.csv)-1)) [$envs]"
  grep -v "timing:" $o/$tag.err | grep -i "flush ordered" | head -2; }
t0=$(now); $D/workload/many_launches 5000 > /dev/null; echo "TIME plain $(python3 -c "print(f'{$(now)-$t0:.2f}')")"
for set in gpu__time_duration.sum,smsp__inst_executed.sum gpu__time_duration.sum,sm__cycles_active.avg gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum; do
  tag=$(echo $set | cut -d, -f2 | cut -d_ -f1-3)
  run ${tag}_flush "" --counters $set -- $D/workload/many_launches 5000
  run ${tag}_none "" --cache-control none --counters $set -- $D/workload/many_launches 5000
done
