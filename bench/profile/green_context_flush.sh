#!/usr/bin/env bash
# Lead, session 5: the L2 flush in a green context (OPENGPA_PROFILE_FLUSH_CONTEXT=green) against a context of its own.
# Needs a build with the green-context variant of the flush (tried in session 5 and removed again: docs/benchmarks.md).
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64 PYTHONUNBUFFERED=1
o=/tmp/green; mkdir -p $o
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
now() { date +%s.%N; }
run() { local tag=$1 envs=$2; shift 2; local t0=$(now)
  env $envs $D/bin/opengpa profile --api cuda -q -f -o $o/$tag "$@" > /dev/null 2> $o/$tag.err; local rc=$?
  echo "TIME $tag $(python3 -c "print(f'{$(now)-$t0:.2f}')") rc=$rc rows=$(($(wc -l < $o/$tag.csv)-1)) [$envs]"
  grep -v "timing:" $o/$tag.err | head -3; grep "timing:" $o/$tag.err | tail -1 | cut -c1-260; }
t0=$(now); $D/workload/many_launches 5000 > /dev/null; echo "TIME plain $(python3 -c "print(f'{$(now)-$t0:.2f}')")"
run many_green "OPENGPA_PROFILE_FLUSH_CONTEXT=green" --counters $one -- $D/workload/many_launches 5000
run many_own "" --counters $one -- $D/workload/many_launches 5000
run fixed_green "OPENGPA_PROFILE_FLUSH_CONTEXT=green" --counters $one -- $D/workload/cuda_kernel_workload
run fixed_own "" --counters $one -- $D/workload/cuda_kernel_workload
run fixed_none "" --cache-control none --counters $one -- $D/workload/cuda_kernel_workload
cd $o && python3 - <<'PY'
import csv
from collections import defaultdict
def load(f): return list(csv.DictReader(open(f)))
g,own,none=load('fixed_green.csv'),load('fixed_own.csv'),load('fixed_none.csv')
print('inst equal green/own', sum(1 for a,b in zip(g,own) if a['smsp__inst_executed.sum']==b['smsp__inst_executed.sum']), len(g))
for m in ['dram__bytes_read.sum','dram__bytes_write.sum','gpu__time_duration.sum']:
    for label,rows in [('green',g),('own',own),('none',none)]:
        by=defaultdict(float); n=defaultdict(int)
        for r in rows: k=r['kernel'].split('(')[0]; by[k]+=float(r[m]); n[k]+=1
        print(m,label,{k:round(v/n[k]) for k,v in by.items()})
for label,f in [('green','many_green.csv'),('own','many_own.csv')]:
    rows=load(f); print(label,'many rows',len(rows),'inst distinct',sorted(set(r['smsp__inst_executed.sum'] for r in rows))[:6])
PY
