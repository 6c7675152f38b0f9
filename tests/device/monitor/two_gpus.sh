#!/usr/bin/env bash
# Issue 29 item 5 on a machine with two GPUs (kind nvidia-h100-x2): the monitor with every GPU busy, and the
# counter hand-over to a profiler. Runs from the stage that build_two_gpus.sh made on the development machine:
#   STAGE/tests/two_gpus.sh STAGE        results (monitor CSV, logs, verdicts) in $OUT or /tmp/opengpa-two-gpus
# One `opengpa monitor --counters nvml,gpm,<3 PM metrics>` at 200 ms ticks and 1 ms PM samples runs throughout:
#   A. copy loops on both GPUs at once for 10 s (copy_loop: its own byte counts and time window)
#   B. `opengpa profile` of 30 copy launches on GPU 0 while GPU 1 copies on (the monitor must hand GPU 0 over)
#   C. 4 s later, a 3 s copy loop on GPU 0 again (PM sampling must be back)
# Before the monitor starts, the same `opengpa profile` alone (0.), so that a failure in B can be told apart from
# one of the profiler itself.
# two_gpus_check.py then judges the CSV against the loops (PASS/FAIL lines, summary.json).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
stage=$(cd "${1:?usage: two_gpus.sh STAGE}" && pwd) || exit 2
work=$(mktemp -d)
out=$work/results  # archived into $OUT (or /tmp/opengpa-two-gpus) at the end: $OUT takes few files
mkdir -p "$out"
cupti=""
for candidate in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13; do
  [[ -e $candidate ]] && { cupti=$candidate; break; }
done
[[ -n $cupti ]] && export OPENGPA_CUPTI_LIBRARY=$cupti LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=index,name,uuid,driver_version --format=csv,noheader | tee "$out/gpus.txt"
# Both sides (the monitor and the profiler it hands GPU 0 to) use this folder.
export OPENGPA_MONITOR_HANDOVER_DIR=$work/handover
opengpa=$stage/bin/opengpa
loop=$stage/tests/copy_loop
now() { date +%s%N; }
profile() {  # profile NAME: 30 copy launches of 64 MiB on GPU 0 under opengpa profile
  timeout 150 "$opengpa" profile --api cuda --counters dram__bytes_read.sum,gpu__time_duration.sum -f \
    -o "$work/$1" -- "$loop" --device 0 --launches 30 --mib 64 >"$out/$1_stdout.txt" 2>"$out/$1_stderr.txt"
  local status=$?
  echo "$1: exit $status; $(wc -l <"$work/$1.csv" 2>/dev/null || echo no) CSV lines; stderr:"
  sed 's/^/  /' "$out/$1_stderr.txt" | head -n 20
  return $status
}

echo "0. opengpa profile alone"
profile alone

"$opengpa" monitor --counters nvml,gpm,dram__bytes_read.sum,dram__bytes_write.sum,gpc__cycles_elapsed.max \
  --interval-ms 200 --csv "$work/monitor.csv" -f >"$out/monitor_stdout.txt" 2>"$out/monitor_stderr.txt" &
monitor=$!
sleep 3
echo "phase A: copy loops on both GPUs for 10 s"
"$loop" --device 0 --seconds 10 >"$work/a0.json" 2>"$out/a0_stderr.txt" &
a0=$!
"$loop" --device 1 --seconds 10 >"$work/a1.json" 2>"$out/a1_stderr.txt"
wait $a0
sleep 2
echo "phase B: opengpa profile on GPU 0 while GPU 1 copies"
"$loop" --device 1 --seconds 8 >"$work/b1.json" 2>"$out/b1_stderr.txt" &
b1=$!
profile_begin=$(now)
profile profile
profile_status=$?
profile_end=$(now)
wait $b1
sleep 4
echo "phase C: GPU 0 again, 3 s"
"$loop" --device 0 --seconds 3 >"$work/c0.json" 2>"$out/c0_stderr.txt"
sleep 1
kill -TERM $monitor  # SIGINT is ignored by a background job of a non-interactive shell
wait $monitor
monitor_status=$?
echo "monitor exit $monitor_status"
cat "$out/monitor_stderr.txt"
cp "$work"/*.json "$out/" 2>/dev/null
cp "$work/profile.csv" "$out/profile.csv" 2>/dev/null
python3 "$here/two_gpus_check.py" --csv "$work/monitor.csv" --work "$work" --out "$out" \
  --monitor-status "$monitor_status" --monitor-stderr "$out/monitor_stderr.txt" \
  --profile-status "$profile_status" --profile-csv "$work/profile.csv" \
  --profile-window "$profile_begin" "$profile_end"
status=$?
gzip -c "$work/monitor.csv" >"$out/monitor.csv.gz"
final=${OUT:-/tmp/opengpa-two-gpus}
mkdir -p "$final"
cp "$out/summary.json" "$final/" 2>/dev/null
tar czf "$final/two_gpus_results.tgz" -C "$out" .
ls -la "$out"
exit $status
