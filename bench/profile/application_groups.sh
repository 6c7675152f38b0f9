#!/usr/bin/env bash
# bench/profile: run from a folder laid out as build-device-lead (bin/opengpa, lib/, workload/, torch_program.py).
# Lead, session 5: application replay with first-fit + searched one-pass groups (2 runs for the multi-pass set).
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64 PYTHONUNBUFFERED=1
out=${OUT:-/tmp}/groups; mkdir -p $out
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
multi=$one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct
now() { date +%s.%N; }
timed() { local tag=$1; shift; local t0=$(now); "$@" > "$out/$tag.log" 2>&1; local rc=$?
  echo "TIME $tag $(python3 -c "print(f'{$(now) - $t0:.2f}')") rc=$rc"; grep -v timing: "$out/$tag.log" | grep -i "pass\|replay\|run" | head -3; }
timed plain python3 $D/torch_program.py 1
timed opengpa_multi $D/bin/opengpa profile --api cuda -q -f -o $out/opengpa_multi --counters $multi -- python3 $D/torch_program.py 1
timed ncu_multi timeout 200 ncu --metrics "$multi" --csv --print-units base --clock-control none --log-file $out/ncu_multi.csv python3 $D/torch_program.py 1
timed opengpa_multi_2 $D/bin/opengpa profile --api cuda -q -f -o $out/opengpa_multi_2 --counters $multi -- python3 $D/torch_program.py 1
timed fixed_one $D/bin/opengpa profile --api cuda -q -f -o $out/fixed_one --counters $multi --replay-mode kernel -- $D/workload/cuda_kernel_workload
timed fixed_app $D/bin/opengpa profile --api cuda -q -f -o $out/fixed_app --counters $multi -- $D/workload/cuda_kernel_workload
timed fixed_onepass $D/bin/opengpa profile --api cuda -q -f -o $out/fixed_onepass --counters $one -- $D/workload/cuda_kernel_workload
rm -f $out/*.trace.json
