#!/usr/bin/env bash
# Issue 12 on the GPU machine (device tool), experiments 1 and 2 of branch gate:
# 1. gated user ranges (OPENGPA_PROFILE_RANGES=gated, launch_gate.h: the launch's stream waits on a host flag
#    from before the push until after the pop) against auto ranges (the default) and plain user ranges, with
#    the L2 flush: wall time at 5000 launches, per-launch values against auto range's (gate_compare.py), known
#    DRAM bytes (fixed workload), and PyTorch launch by launch (the first-launch DRAM writes);
# 2. PyTorch with the multi-pass set under --replay-mode kernel (ncu: 40.33 s; application replay 40.70 s).
# The gated ranges were a probe build (commit 9d7da3a, branch gate-probe; removed after this measurement: CUPTI's
# push waits on the host for the stream's work, so every launch waited for the watchdog; docs/benchmarks.md).
# With a later build the OPENGPA_PROFILE_RANGES=gated runs are plain auto-range runs.
#   gate_probe.sh DIR      DIR as run.sh's (bin/opengpa, lib/, workload/, torch_program.py), plus gate_compare.py
#                          and summarize_csv.py
set -uo pipefail
D=$(cd "${1:?DIR}" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=/tmp/gate-probe; rm -rf $out; mkdir -p $out/tmp; export TMPDIR=$out/tmp PYTHONUNBUFFERED=1
N=${N:-5000}
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
multi=$one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct
many=$D/workload/many_launches; fixed=$D/workload/cuda_kernel_workload; torch="python3 $D/torch_program.py 1"
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2-$1:.3f}')"; }
nvidia-smi -L
t0=$(now); $many $N >/dev/null; t1=$(now); echo "TIME plain_many $(elapsed $t0 $t1)"
run() {  # run TAG LIMIT "ENV..." opengpa-options... -- program...
  local tag=$1 limit=$2 envs=$3; shift 3
  t0=$(now)
  env $envs timeout $limit $D/bin/opengpa profile --api cuda -q -f -o $out/$tag "$@" >/dev/null 2>$out/$tag.err
  rc=$?; t1=$(now)
  echo "TIME $tag $(elapsed $t0 $t1) rc=$rc [$envs]"
  grep -v 'timing:' $out/$tag.err | sort | uniq -c | sort -rn | head -n 4
  grep 'timing:' $out/$tag.err | tail -n 1 | sed 's/.*so far: /  so far: /'
}
run many_auto 90 "" --counters $one -- $many $N
run many_gated 90 "OPENGPA_PROFILE_RANGES=gated" --counters $one -- $many $N
python3 $D/summarize_csv.py $out/many_auto.csv; python3 $D/summarize_csv.py $out/many_gated.csv
python3 $D/gate_compare.py $out/many_auto.csv $out/many_gated.csv
run many_gated_release_first 90 "OPENGPA_PROFILE_RANGES=gated OPENGPA_PROFILE_GATE_ORDER=release_first" --counters $one -- $many 2000
python3 $D/summarize_csv.py $out/many_gated_release_first.csv
run many_user 90 "OPENGPA_PROFILE_RANGES=user" --counters $one -- $many 2000
python3 $D/summarize_csv.py $out/many_user.csv
# Work between the ranges stays out: only `add` profiled (655 360 instructions each).
run add_only_gated 60 "OPENGPA_PROFILE_RANGES=gated" --kernel-name '^add' --counters $one -- $many 2000
python3 $D/summarize_csv.py $out/add_only_gated.csv
# Known footprints (add reads 134 217 728 bytes, scale 67 108 864).
run fixed_auto 60 "" --counters $one -- $fixed
run fixed_gated 60 "OPENGPA_PROFILE_RANGES=gated" --counters $one -- $fixed
python3 $D/gate_compare.py $out/fixed_auto.csv $out/fixed_gated.csv
python3 $D/summarize_csv.py $out/fixed_gated.csv
t0=$(now); $torch >/dev/null; t1=$(now); echo "TIME plain_torch $(elapsed $t0 $t1)"
run torch_auto 120 "" --counters $one -- $torch
run torch_gated 120 "OPENGPA_PROFILE_RANGES=gated" --counters $one -- $torch
python3 $D/gate_compare.py $out/torch_auto.csv $out/torch_gated.csv
run torch_kernel_multi 200 "" --replay-mode kernel --counters $multi -- $torch
python3 $D/gate_compare.py $out/torch_auto.csv $out/torch_kernel_multi.csv
tar -C $out --exclude tmp --exclude '*.trace.json' -czf ${OUT:-/tmp}/gate_probe.tgz .
