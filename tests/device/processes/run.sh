#!/usr/bin/env bash
# Issue 29 on an NVIDIA GPU: every process of a program is profiled, whatever starts it, and one that cannot be
# profiled makes `opengpa profile` fail naming it. Runs from the stage build.sh made (on the development machine):
#   STAGE/tests/run.sh STAGE            results (a log and a JSON summary) in $OUT or /tmp/opengpa-processes
# Checks (each PASS or FAIL with its figures), N = 50 launches before and 50 after the child, M = 22 in the child:
#   posix_spawn, vfork, fork, Python subprocess.run: exit 0, the parent's 2N and the child's M launches profiled,
#       under two pids, each row naming the GPU's UUID and PCI bus id
#   concurrent: the parent's second N launches made while the child runs (both launch at once): all profiled
#   orphan: the parent exits without waiting for its child: opengpa waits for the child, whose M launches are profiled
#   sampled_*: posix_spawn, concurrent, Python and orphan again with --mode sampled (issue 36): every launch a row
#       with all its time in decoded samples (pm__coverage 1), the samples attributed while the program exited
#       (after it for the orphan, which outlives the program's own process), no process left without samples
#   without turns (OPENGPA_PROFILE_TURNS=off): what happened before issue 29's fix (the child's setup refused),
#       now named with its pid and reason, exit 3
#   a child whose counters its GPU cannot measure: exit 3 naming it; --allow-unprofiled-processes: exit 0
#   -o NAME.%p: one report per process, each with its own launches
#   cost: 4000 launches in one process with and without turns (wall time under the profiler, 3 runs each)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 1 ]] || { echo "usage: $0 STAGE_DIR" >&2; exit 2; }
stage=$(cd "$1" && pwd) || exit 2
out=${OUT:-/tmp/opengpa-processes}
mkdir -p "$out"
cupti=""
for candidate in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13; do
  [[ -e $candidate ]] && { cupti=$candidate; break; }
done
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,uuid,pci.bus_id --format=csv,noheader
echo "libcupti: ${cupti:-not found}; python: $(python3 --version 2>&1)"
exec python3 "$here/check_processes.py" "$stage" "$out"
