#!/usr/bin/env bash
# bench/profile: run from a folder laid out as build-device-lead (bin/opengpa, lib/, workload/, torch_program.py).
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64 PYTHONUNBUFFERED=1
o=/tmp/gv; mkdir -p $o
one=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
multi=$one,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct
t0=$(date +%s.%N); $D/bin/opengpa profile --api cuda -f -o $o/og --counters $multi -- python3 $D/torch_program.py 1 > $o/og.log 2>&1; echo "opengpa rc=$? $(python3 -c "print(f'{$(date +%s.%N)-$t0:.2f}')") s"
grep -v "timing:" $o/og.log | grep -i "pass\|run\|replay" | head -4
t0=$(date +%s.%N); ncu --metrics "$multi" --csv --print-units base --clock-control none --log-file $o/ncu.csv python3 $D/torch_program.py 1 > /dev/null 2>&1; echo "ncu rc=$? $(python3 -c "print(f'{$(date +%s.%N)-$t0:.2f}')") s"
cd $o && python3 - <<'PY'
import csv,io
t=open('ncu.csv').read(); t=t[t.index('"ID"'):]
n={}
for r in csv.DictReader(io.StringIO(t)):
    n.setdefault(int(r['ID']),{})[r['Metric Name']]=float(r['Metric Value'].replace(',',''))
o=list(csv.DictReader(open('og.csv')))
same=sum(1 for r in o if int(r['index']) in n and r['smsp__inst_executed.sum'] and float(r['smsp__inst_executed.sum'])==n[int(r['index'])]['smsp__inst_executed.sum'])
print('launches',len(o),len(n),'inst equal',same)
for m in ['smsp__inst_executed.sum','dram__bytes_read.sum','dram__bytes_write.sum','gpu__time_duration.sum','smsp__sass_thread_inst_executed_op_ffma_pred_on.sum','sm__cycles_active.avg']:
    a=sum(float(r[m]) for r in o if r[m]); b=sum(v[m] for v in n.values())
    print(' ',m, f"{a:.6g} {b:.6g} {a/b:.4f}")
PY
