#!/usr/bin/env bash
# On the GPU machine: the default `opengpa profile` run of cuda_kernel_workload 12 times (stopping after 3 crashes) with a
# SIGSEGV handler preloaded into the program (segv_backtrace.c, built here with
# `gcc -shared -fPIC -O1 -o <dir>/dbg/segv.so segv_backtrace.c`), then many_launches 400 three times. <dir> holds
# bin/opengpa, lib/ and workload/ as tests/device/cuda_graphs/build.sh and bench/profile lay them out; the script
# sits in <dir>/dbg/. docs/benchmarks.md (the exit crash) and docs/validation.md.
here=$(cd "$(dirname "$0")/.." && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
o=/tmp/dbg; mkdir -p $o; crashes=0
which gdb cuda-gdb 2>&1 | head -2
for i in $(seq 1 12); do
  timeout 120 $here/bin/opengpa profile --api cuda -q -f -o $o/f_$i --counters $one -- env LD_PRELOAD=$here/dbg/segv.so $here/workload/cuda_kernel_workload >/dev/null 2>$o/f_$i.err; rc=$?
  echo "RUN $i rc=$rc rows=$(($(wc -l < $o/f_$i.csv)-1))"
  if [[ $rc != 0 ]]; then crashes=$((crashes+1)); grep -v "^timing" $o/f_$i.err | tail -45; fi
  [[ $crashes -ge 3 ]] && break
done
echo "crashes=$crashes"
for i in 1 2 3; do
  timeout 120 $here/bin/opengpa profile --api cuda -q -f -o $o/m_$i --counters $one -- $here/workload/many_launches 400 >/dev/null 2>$o/m_$i.err; rc=$?
  echo "MANY $i rc=$rc rows=$(($(wc -l < $o/m_$i.csv)-1))"
done
