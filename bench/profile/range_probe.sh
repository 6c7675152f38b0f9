#!/usr/bin/env bash
# Issue 12 probe on the GPU machine (device tool): CUPTI user ranges (the default with user replay) against
# auto ranges (OPENGPA_PROFILE_RANGES=auto) on the same programs, with and without the L2 flush: wall time,
# the `timing:` line, and per-kernel values (summarize_csv.py): does work outside the user ranges stay out
# (a filtered run's instruction counts), are the values those of auto ranges (instruction counts exact; DRAM
# bytes of kernels with known footprints), and what each costs per launch.
#   range_probe.sh DIR      DIR as run.sh's (bin/opengpa, lib/, workload/), plus summarize_csv.py
set -uo pipefail
D=$(cd "${1:?DIR}" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=/tmp/range-probe; rm -rf $out; mkdir -p $out/tmp; export TMPDIR=$out/tmp
N=${N:-2000}
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
multi=$one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct
now() { date +%s.%N; }
nvidia-smi -L
t0=$(now); $D/workload/many_launches $N >/dev/null; t1=$(now); echo "TIME plain_many $(python3 -c "print(f'{$t1-$t0:.3f}')")"
run() {  # run TAG "ENV..." opengpa-options... -- program...
  local tag=$1 envs=$2; shift 2
  t0=$(now)
  env $envs timeout 120 $D/bin/opengpa profile --api cuda -q -f -o $out/$tag "$@" >/dev/null 2>$out/$tag.err
  rc=$?; t1=$(now)
  echo "TIME $tag $(python3 -c "print(f'{$t1-$t0:.3f}')") rc=$rc [$envs]"
  grep -v 'timing:' $out/$tag.err | sort | uniq -c | sort -rn | head -n 6
  grep 'timing:' $out/$tag.err | tail -n 1 | sed 's/.*so far: /  so far: /'
  python3 $D/summarize_csv.py $out/$tag.csv
}
many=$D/workload/many_launches
run user_flush "" --counters $one -- $many $N
run user_noflush "" --cache-control none --counters $one -- $many $N
run auto_flush "OPENGPA_PROFILE_RANGES=auto" --counters $one -- $many $N
run auto_noflush "OPENGPA_PROFILE_RANGES=auto" --cache-control none --counters $one -- $many $N
run user_noflush_b1024 "OPENGPA_PROFILE_BATCH=1024" --cache-control none --counters $one -- $many $N
# Work outside the ranges: only `add` profiled; the other kernels run between its ranges.
run user_add_only "" --kernel-name '^add' --counters $one -- $many $N
run user_add_only_noflush "" --kernel-name '^add' --cache-control none --counters $one -- $many $N
run user_filter_count "" --kernel-name '^(add|scale)' --launch-skip 10 --launch-count 50 --counters $one -- $many $N
# Known footprints (tests/cli/device/cuda_kernel_workload.cu: add reads 134217728 bytes, scale 67108864).
run fixed_user "" --counters $one -- $D/workload/cuda_kernel_workload
run fixed_auto "OPENGPA_PROFILE_RANGES=auto" --counters $one -- $D/workload/cuda_kernel_workload
run fixed_app_user "" --replay-mode application --counters $multi -- $D/workload/cuda_kernel_workload
run many_app_user "" --counters $multi -- $many 500
run graph_user "" --counters $one -- $D/workload/graph_launches 20
tar -C $out --exclude tmp -czf ${OUT:-/tmp}/range_probe.tgz .
