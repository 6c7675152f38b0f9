#!/usr/bin/env bash
# Runs on the GPU machine (issue 12; docs/validation.md), from the folder build.sh filled:
#   bash <out-dir>/run_nodes.sh
# --graph-profiling node (graph_expansion.h): the graph programs' own results with and without the profiler,
# every kernel node a sample equal to the same kernel launched plainly, the program's changes to its
# executable graphs followed, a PyTorch CUDA graph against its eager step; --graph-profiling graph as before.
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib
out=${OUT:-/tmp/opengpa-graphs}
mkdir -p "$out"
status=0
one=smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
ffma=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
now() { date +%s.%N; }
profile() {  # profile NAME options... : prints the program's result lines, opengpa's messages, wall time
  local name=$1; shift
  local t0=$(now)
  bin/opengpa profile --api cuda -f -q -o "/tmp/$name" "$@" > "/tmp/$name.log" 2>&1
  local rc=$?
  echo "== $name: rc=$rc $(python3 -c "print(f'{$(now)-$t0:.2f} s')")"
  grep -i "results\|replay [0-9]\|^[0-9][a-z]*\. \|graph\|error\|fail" "/tmp/$name.log" | grep -v "^timing" | head -20
  cp "/tmp/$name.json" "$out/" 2>/dev/null
  return $rc
}
check() { python3 check_profiles.py "$@" | grep -v "^ok"; status=$((status | PIPESTATUS[0])); }
echo "== unprofiled"; workload/graph_workload 3 | tail -1; workload/graph_changes | tail -1; workload/graph_children | tail -1
profile nodes_one_pass --counters $one -- workload/graph_workload 3 || status=1
check nodes /tmp/nodes_one_pass.json 3
profile nodes_application --counters $one,$ffma -- workload/graph_workload 3 || status=1
check nodes /tmp/nodes_application.json 3
profile nodes_kernel_replay --replay-mode kernel --counters $one,$ffma -- workload/graph_workload 1 || status=1
check nodes /tmp/nodes_kernel_replay.json 1


# Child graphs nested two deep, their nodes replayed too, and a child graph's parameters set by the program.
profile children_one_pass --counters $one -- workload/graph_children || status=1
check children /tmp/children_one_pass.json
profile children_application --counters $one,$ffma -- workload/graph_children || status=1
check children /tmp/children_application.json
profile children_whole --graph-profiling graph --counters $one,$ffma -- workload/graph_children || status=1
check children-whole /tmp/children_whole.json
profile whole_one_pass --graph-profiling graph --counters $one -- workload/graph_workload 3 || status=1
check graphs /tmp/whole_one_pass.json 3
profile changes --counters $one,$ffma -- workload/graph_changes || status=1
python3 - <<'PY'
import json
d = json.load(open('/tmp/changes.json'))
for s in sorted(d['samples'], key=lambda s: s['index']):
    print(s['index'], s.get('graph'), s.get('graph_node'), s['kernel'][:40], {k.split('__')[1][:12]: v for k, v in s['values'].items()})
for m in d.get('messages', []):
    print('message:', m[:200])
PY
profile torch_graph --counters $one,$ffma -- python3 torch_graph.py || status=1
python3 check_torch_graph.py /tmp/torch_graph.json | grep -v "^ok"; status=$((status | PIPESTATUS[0]))
# ncu profiles graph kernel nodes by default (--graph-profiling node): its instruction counts per node, and
# its wall time against opengpa's on the same program and metrics.
against_ncu() {  # against_ncu PROGRAM-AND-ARGUMENTS OUR-PROFILE.json
  local t0=$(now)
  timeout 200 ncu --metrics $one --csv --print-units base --clock-control none --log-file /tmp/ncu_nodes.csv \
    $1 > /dev/null 2>&1
  echo "== ncu $1: rc=$? $(python3 -c "print(f'{$(now)-$t0:.2f} s')")"
  python3 - "$2" <<'PY'
import csv, json, sys
rows = [r for r in csv.DictReader(l for l in open('/tmp/ncu_nodes.csv') if not l.startswith('==')) if r['Metric Name'] == 'smsp__inst_executed.sum']
ncu = [float(r['Metric Value'].replace(',', '')) for r in rows]
ours = [s['values']['smsp__inst_executed.sum'] for s in sorted(json.load(open(sys.argv[1]))['samples'], key=lambda s: s['index'])]
equal = sum(a == b for a, b in zip(ncu, ours))
print(f"ncu {len(ncu)} kernel results, opengpa {len(ours)} samples; instructions equal in {equal} of {min(len(ncu), len(ours))}")
sys.exit(0 if len(ncu) == len(ours) and equal == len(ncu) else 1)
PY
  status=$((status | $?))
}
against_ncu "workload/graph_workload 3" /tmp/nodes_one_pass.json
against_ncu workload/graph_children /tmp/children_one_pass.json
echo "run_nodes status $status"
exit $status
