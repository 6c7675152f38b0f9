#!/usr/bin/env bash
# What ordering the flush's two contexts costs without CUPTI, and value-ordered flushes
# (stream memory operations on portable host memory) against event waits under the range profiler.
# DIR (this script's folder) holds bin/opengpa, lib/, workload/many_launches (run.sh's) and workload/context_switch_cost
# (nvcc -O2 -arch=sm_90 -o workload/context_switch_cost bench/profile/context_switch_cost.cu -lcuda).
# The `value` ordering it times existed only in a probe build; the default build treats it as unforced.
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64 PYTHONUNBUFFERED=1
o=/tmp/order; mkdir -p $o
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
gpa=GPUTime,FetchSize,WriteSize,L2CacheHit
now() { date +%s.%N; }
run() { local tag=$1 envs=$2; shift 2; local t0=$(now)
  env $envs $D/bin/opengpa profile --api cuda -q -f -o $o/$tag "$@" > /dev/null 2> $o/$tag.err; local rc=$?
  echo "TIME $tag $(python3 -c "print(f'{$(now)-$t0:.2f}')") rc=$rc rows=$(($(wc -l < $o/$tag.csv)-1)) [$envs]"
  grep -v "timing:" $o/$tag.err | head -3; grep "timing:" $o/$tag.err | tail -1 | sed 's/.*so far: //' | cut -c1-200; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$D/workload/context_switch_cost 2000
t0=$(now); $D/workload/many_launches 5000 > /dev/null; echo "TIME plain $(python3 -c "print(f'{$(now)-$t0:.2f}')")"
run sm_gpu "OPENGPA_PROFILE_FLUSH_ORDER=gpu" --counters $one -- $D/workload/many_launches 5000
run sm_value "OPENGPA_PROFILE_FLUSH_ORDER=value" --counters $one -- $D/workload/many_launches 5000
run sm_none "" --cache-control none --counters $one -- $D/workload/many_launches 5000
run gpa_value "OPENGPA_PROFILE_FLUSH_ORDER=value" --counters $gpa -- $D/workload/many_launches 5000
run gpa_host "OPENGPA_PROFILE_FLUSH_ORDER=host" --counters $gpa -- $D/workload/many_launches 5000
cd $o && python3 - <<'PY'
import csv
from collections import defaultdict
def load(f): return list(csv.DictReader(open(f)))
for label in ['sm_gpu','sm_value','sm_none']:
    rows=load(f'{label}.csv'); by=defaultdict(list)
    for r in rows: by[r['kernel'].split('(')[0]].append(r)
    print(label,len(rows),{k:(sorted(set(r['smsp__inst_executed.sum'] for r in v)), round(sum(float(r['dram__bytes_read.sum']) for r in v)/len(v)), round(sum(float(r['dram__bytes_write.sum']) for r in v)/len(v)), round(sum(float(r['gpu__time_duration.sum']) for r in v)/len(v))) for k,v in by.items()})
for label in ['gpa_value','gpa_host']:
    rows=load(f'{label}.csv'); by=defaultdict(list)
    for r in rows: by[r['kernel'].split('(')[0]].append(r)
    print(label,len(rows),{k:tuple(round(sum(float(r[m]) for r in v)/len(v),1) for m in ['GPUTime','FetchSize','WriteSize','L2CacheHit']) for k,v in by.items()})
PY
