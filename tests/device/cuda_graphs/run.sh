#!/usr/bin/env bash
# Runs on the GPU machine (issue 12; docs/validation.md), from the folder build.sh filled:
#   bash <out-dir>/run.sh [probe]
# CUDA graphs and streams/contexts under `opengpa profile` (one pass, application replay, kernel replay),
# checked against the known work by check_profiles.py; NVTX ranges marked on a thread without a CUDA context;
# then Python's graph replays (pytest). With `probe`,
# first graph_probe's five scenarios (what CUPTI's range profiler does with graph launches).
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib
out=${OUT:-/tmp/opengpa-graphs}
mkdir -p "$out"
status=0
if [[ ${1:-} == probe ]]; then
  for scenario in arrangement userrange kernelreplay capture capturelaunch; do
    echo "=== probe $scenario"; timeout 60 workload/graph_probe $scenario 2>&1 | head -40
  done
fi
one=smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
ffma=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
profile() {
  local name=$1; shift
  bin/opengpa profile --api cuda -f -q -o "/tmp/$name" "$@" 2>&1 | grep -v "^timing" | tail -3
  cp "/tmp/$name.json" "$out/"
}
check() { python3 check_profiles.py "$@" | grep -v "^ok"; status=$((status | PIPESTATUS[0])); }
profile graphs_one_pass --graph-profiling graph --counters $one -- workload/graph_workload 3 && check graphs /tmp/graphs_one_pass.json 3
profile graphs_application --graph-profiling graph --counters $one,$ffma -- workload/graph_workload 3 && check graphs /tmp/graphs_application.json 3
profile graphs_kernel_replay --graph-profiling graph --replay-mode kernel --counters $one -- workload/graph_workload 1
python3 -c "import json; d = json.load(open('/tmp/graphs_kernel_replay.json')); print('kernel replay:', len(d['samples']),
'samples;', [m for m in d.get('messages', []) if 'graph' in m])"
profile streams_one_pass --counters $ffma -- workload/streams_contexts && check streams /tmp/streams_one_pass.json
profile streams_application --counters $ffma,gpu__time_duration.sum -- workload/streams_contexts &&
  check streams /tmp/streams_application.json
# NVTX ranges pushed by a thread that never calls CUDA, around another thread's launches (and, to compare,
# ranges the launching thread pushes itself): each range a sample, in one pass and in application replay.
profile nvtx_one_pass --range-mode nvtx --counters $one,$ffma -- workload/nvtx_other_thread 8 &&
  check nvtx /tmp/nvtx_one_pass.json 8
profile nvtx_application --range-mode nvtx --counters $one,$ffma,sm__cycles_active.avg,lts__t_sectors_op_read.sum \
  -- workload/nvtx_other_thread 8 && check nvtx /tmp/nvtx_application.json 8
OPENGPA_LIBRARY_DIR=$here/lib PYTHONPATH=$here/python OPENGPA_DEVICE_OUT=$out PYTHONUNBUFFERED=1 timeout 300 \
  python3 -m pytest -p no:cacheprovider -q -s -rA tests/device/python/test_graph_kernels_device.py 2>&1 | tail -40
exit $((status | PIPESTATUS[0]))
