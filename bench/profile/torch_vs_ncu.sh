#!/usr/bin/env bash
# On the GPU machine: opengpa and ncu on the PyTorch program of bench/profile (torch_program.py) in ONE machine
# start, interleaved so drift hits both: plain run, then ncu / opengpa with the multi-pass set twice each, then
# the one-pass set once each. Issue 12's target "multi-pass: less wall time than ncu on a PyTorch program".
#   torch_vs_ncu.sh DIR      DIR: bin/opengpa, lib/, torch_program.py (as run.sh's layout)
D=$(cd "$1" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64 PYTHONUNBUFFERED=1
out=${OUT:-/tmp}/torch_vs_ncu; mkdir -p "$out"
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
multi=$one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct
now() { date +%s.%N; }
timed() { local tag=$1; shift; local t0=$(now); "$@" > "$out/$tag.log" 2>&1; local rc=$?
  echo "TIME $tag $(python3 -c "print(f'{$(now) - $t0:.2f}')") rc=$rc"; }
ncu_run() { timed "ncu_$1" timeout 200 ncu --metrics "$2" --csv --print-units base --clock-control none \
  --log-file "$out/ncu_$1.csv" python3 "$D/torch_program.py" 1; }
gpa_run() { timed "opengpa_$1" timeout 200 "$D/bin/opengpa" profile --api cuda -q -f -o "$out/opengpa_$1" \
  --counters "$2" -- python3 "$D/torch_program.py" 1; grep -h "replay\|pass" "$out/opengpa_$1.log" | grep -v timing | head -2; }
timed plain python3 "$D/torch_program.py" 1
for round in 1 2; do ncu_run multi_$round "$multi"; gpa_run multi_$round "$multi"; done
ncu_run one "$one"; gpa_run one "$one"
timed plain_again python3 "$D/torch_program.py" 1
