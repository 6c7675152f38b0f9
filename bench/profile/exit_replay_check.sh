#!/usr/bin/env bash
# On the GPU machine (device tool), second call of branch gate (issue 12; docs/benchmarks.md, docs/validation.md):
# the default run's exit crash (rc 139 after every sample was written) against the flush's context and
# --cache-control none, and PyTorch's multi-pass set under application replay (kernel replay's figure is
# gate_probe.sh's). The device call ran it as build-device-gate/check2.sh.
#   exit_replay_check.sh DIR    DIR/main: bin/opengpa, lib/, torch_program.py of the build tested;
#                               DIR/workload: cuda_kernel_workload and many_launches (as run.sh's)
D=$(cd "$1" && pwd); M=$D/main
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64 PYTHONUNBUFFERED=1
out=/tmp/check2; rm -rf $out; mkdir -p $out
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
multi=$one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct
now() { date +%s.%N; }
run() { local tag=$1 envs=$2; shift 2; local t0=$(now)
  env $envs timeout 150 $M/bin/opengpa profile --api cuda -q -f -o $out/$tag "$@" >/dev/null 2>$out/$tag.err; local rc=$?
  echo "TIME $tag $(python3 -c "print(f'{$(now)-$t0:.3f}')") rc=$rc rows=$(($(wc -l < $out/$tag.csv)-1)) [$envs] $(grep -v timing: $out/$tag.err | tail -n 1 | cut -c1-160)"; }
for i in 1 2 3 4; do run fixed_auto_$i "" --counters $one -- $D/workload/cuda_kernel_workload; done
for i in 1 2; do run fixed_program_flush_$i "OPENGPA_PROFILE_FLUSH_CONTEXT=program" --counters $one -- $D/workload/cuda_kernel_workload; done
for i in 1 2; do run fixed_nocache_$i "" --cache-control none --counters $one -- $D/workload/cuda_kernel_workload; done
run many_auto_400 "" --counters $one -- $D/workload/many_launches 400
t0=$(now); python3 $M/torch_program.py 1 >/dev/null; echo "TIME plain_torch $(python3 -c "print(f'{$(now)-$t0:.3f}')")"
run torch_app_multi "" --replay-mode application --counters $multi -- python3 $M/torch_program.py 1
tar -C $out -czf ${OUT:-/tmp}/check2.tgz --exclude '*.trace.json' .
