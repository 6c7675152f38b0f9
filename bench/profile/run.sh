#!/usr/bin/env bash
# On the GPU machine (device tool; docs/benchmarks.md has the command and the table it produced):
# `opengpa profile` against `ncu --metrics` on the programs of the issue-12 targets, with wall times, and
# the profiles whose values bench/profile/compare.py then compares here.
#
#   run.sh DIR [quick|full] [SECTIONS]     SECTIONS: any of "many fixed torch graph" (default all four)
# Environment: MULTI_LAUNCHES (launches of the multi-pass many-launch runs, default 2000), SKIP_NCU (ncu
# runs to leave out, e.g. "many_one fixed_multi" when an earlier run of the same programs has them),
# SKIP_RUNS (opengpa runs to leave out, by tag).
# quick: 400 launches, one PyTorch step, fewer ncu runs (a check that everything works).
# DIR holds bin/opengpa, lib/ (the GPA and injection libraries), workload/many_launches and
# workload/cuda_kernel_workload (tests/cli/device) and workload/graph_launches built for sm_90, and
# torch_program.py.
# $OUT gets log_<mode>.txt (TIME lines) and results_<mode>.tgz: the <tag>.json profiles, ncu_<tag>.csv
# and each run's stderr (the device tool brings back few files, so they travel as one archive).
# ncu runs with --clock-control none (the project never locks clocks; opengpa does not either) and its
# default cache control (flush before every pass), as opengpa's default --cache-control all.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
mode=${2:-full}
sections=${3:-many fixed torch graph}
section() { [[ " $sections " == *" $1 "* ]]; }
final=${OUT:-/tmp/opengpa-bench}
out=/tmp/opengpa-bench-$mode
rm -rf "$out"
mkdir -p "$final" "$out" "$out/tmp"
tag_suffix=${sections// /_}
exec > >(tee "$final/log_${mode}_$tag_suffix.txt") 2>&1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export TMPDIR=$out/tmp PYTHONUNBUFFERED=1
opengpa=$dir/bin/opengpa
many=$dir/workload/many_launches
fixed=$dir/workload/cuda_kernel_workload
graph=$dir/workload/graph_launches
torch_program=$dir/torch_program.py
if [[ $mode == quick ]]; then launches=400; multi_launches=400; else launches=5000; multi_launches=${MULTI_LAUNCHES:-2000}; fi
steps=1
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
multi=$one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct
values_one=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_request_hit_rate.pct,smsp__inst_executed.sum
values_multi=$values_one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,sm__cycles_active.avg

now() { date +%s.%N; }
timed() {  # timed TAG command...: runs it, prints "TIME TAG seconds rc=N"
  local tag=$1; shift
  local t0 t1 rc
  t0=$(now); "$@"; rc=$?; t1=$(now)
  echo "TIME $tag $(python3 -c "print(f'{$t1 - $t0:.3f}')") rc=$rc"
}
profile() {  # profile TAG opengpa-options... -- program...: opengpa's messages, less the per-batch timing lines
  local tag=$1; shift
  local t0 t1 rc
  if [[ " ${SKIP_RUNS:-} " == *" $tag "* ]]; then echo "$tag skipped (SKIP_RUNS)"; return; fi
  t0=$(now)
  timeout 300 "$opengpa" profile --api cuda -f -o "$out/$tag" "$@" > "$out/$tag.stdout" 2> "$out/$tag.stderr"
  rc=$?; t1=$(now)
  echo "TIME $tag $(python3 -c "print(f'{$t1 - $t0:.3f}')") rc=$rc"
  grep -v '^opengpa profile: timing:\|kernel launch(es) profiled' "$out/$tag.stderr" | head -n 12
  grep '^opengpa profile: timing:' "$out/$tag.stderr" | tail -n 1
  head -n 1 "$out/$tag.stdout"
  rm -f "$out/$tag.csv" "$out/$tag.trace.json" "$out/$tag.stdout"
}
ncu_run() {  # ncu_run TAG METRICS program...
  local tag=$1 metrics=$2; shift 2
  local t0 t1 rc
  if [[ " ${SKIP_NCU:-} " == *" $tag "* ]]; then echo "ncu_$tag skipped (SKIP_NCU)"; return; fi
  t0=$(now)
  timeout 200 ncu --metrics "$metrics" --csv --print-units base --clock-control none \
    --log-file "$out/ncu_$tag.csv" "$@" > /dev/null
  rc=$?; t1=$(now)
  echo "TIME ncu_$tag $(python3 -c "print(f'{$t1 - $t0:.3f}')") rc=$rc"
}
save() { tar -C "$out" -czf "$final/results_${mode}_$tag_suffix.tgz" .; }  # after each section: a cut-off run keeps the rest

echo "== mode $mode: $launches launches, torch steps $steps"
nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
ncu --version | tail -n 1
python3 -c "import torch, torchvision; print('torch', torch.__version__, 'torchvision', torchvision.__version__)"

if section many; then
echo "== many launches: $launches"
timed plain_many "$many" "$launches"
profile many_none --replay-mode none --counters "$one" -- "$many" "$launches"
profile many_none_nocache --replay-mode none --cache-control none --counters "$one" -- "$many" "$launches"
# Launches as CUPTI user ranges (context_profiler.cc, UseUserRanges: cheaper with the flush, but they measure the
# window of the launch call), with and without the flush.
OPENGPA_PROFILE_RANGES=user profile many_none_user_ranges --replay-mode none --counters "$one" -- "$many" "$launches"
OPENGPA_PROFILE_RANGES=user profile many_none_nocache_user --replay-mode none --cache-control none --counters "$one" -- "$many" "$launches"
timed plain_many_multi "$many" "$multi_launches"
profile many_auto_multi --counters "$multi" -- "$many" "$multi_launches"
profile many_kernel_small --replay-mode kernel --cache-control none --counters "$one" -- "$many" 400
profile many_filtered --kernel-name '^(add|scale)' --launch-skip 10 --launch-count 50 --counters "$one" -- "$many" "$launches"
ncu_run many_one "$one" "$many" "$launches"
[[ $mode == quick ]] || ncu_run many_multi "$multi" "$many" "$multi_launches"
save
fi

if section fixed; then
echo "== fixed workload (tests/cli/device, 240 launches, known bytes)"
timed plain_fixed "$fixed" > /dev/null
profile fixed_one --counters "$values_one" -- "$fixed"
profile fixed_app --replay-mode application --counters "$values_multi" -- "$fixed"
profile fixed_kernel --replay-mode kernel --counters "$values_multi" -- "$fixed"
[[ $mode == quick ]] || profile fixed_kernel_nocache --replay-mode kernel --cache-control none --counters "$values_multi" -- "$fixed"
ncu_run fixed_multi "$values_multi" "$fixed"
save
fi

if section torch; then
echo "== PyTorch: resnet18 + transformer encoder layer, fp16, $steps steps"
timed plain_torch python3 "$torch_program" "$steps"
profile torch_gpa --counters GPUTime,FetchSize,WriteSize,L2CacheHit -- python3 "$torch_program" "$steps"
profile torch_one --counters "$one" -- python3 "$torch_program" "$steps"
profile torch_multi --counters "$multi" -- python3 "$torch_program" "$steps"
if [[ $mode != quick ]]; then
  ncu_run torch_one "$one" python3 "$torch_program" "$steps"
  ncu_run torch_multi "$multi" python3 "$torch_program" "$steps"
fi
save
fi
if section graph; then
echo "== CUDA graph: 3 direct launches, then 20 launches of a graph of the same 3 kernels"
timed plain_graph "$graph" 20
profile graph_one --counters "$one" -- "$graph" 20
save
fi

rm -rf "$out/tmp"
ls -la "$out"
save
