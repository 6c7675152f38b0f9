#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, after build.sh ran on the development machine:
#   tests/device/monitor/run.sh [bin-dir]      (default build-device-monitor/out)
# Results go to $RESULTS_DIR (default /tmp/opengpa-monitor), and as one archive to $OUT when it is set.
# 1. ncu's counts for one launch of the reference FFMA kernel (ground truth for the PM instruction counts);
# 2. monitor_device_check: NVML and PM sampling against known work (PASS/FAIL lines);
# 3. `opengpa monitor` in one process while another process runs FFMA work: CSV analysed, /metrics scraped
#    and parsed by prometheus_client's own parsers (an implementation independent of OpenGPA's);
# 4. the CLI's clean failures;
# 5. the monitor and libGPUPerfAPICUDA.so in one process (one_process_check, when build.sh made it).
set -uo pipefail
bin=$(cd "${1:-build-device-monitor/out}" && pwd)
results=${RESULTS_DIR:-/tmp/opengpa-monitor}
mkdir -p "$results"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # the libraries build.sh copied there

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$results/gpu.txt"
cupti=""
for candidate in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13; do
  [[ -e $candidate ]] && { cupti=$candidate; break; }
done
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
echo "libcupti: ${cupti:-not found}"
if [[ -n $cupti ]]; then
  export OPENGPA_CUPTI_LIBRARY=$cupti
  export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # for libnvperf_host
fi

echo "== 1. ncu reference counts (one launch)"
ncu --csv --metrics sm__inst_executed.sum,sm__inst_executed_pipe_fma.sum \
  "$bin/monitor_device_check" --ffma-launches 1 >"$results/ncu.csv" 2>&1
read -r ncu_inst ncu_fma < <(python3 - "$results/ncu.csv" <<'PY'
import csv, sys
values = {}
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
for row in csv.DictReader(rows):
    values[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
print(values.get("sm__inst_executed.sum", 0), values.get("sm__inst_executed_pipe_fma.sum", 0))
PY
)
echo "ncu: sm__inst_executed.sum=$ncu_inst sm__inst_executed_pipe_fma.sum=$ncu_fma per launch"
cuobjdump -sass "$bin/monitor_device_check" >"$results/ffma_kernel.sass" 2>&1 || true
grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T]\s+)?[A-Z0-9.]+' "$results/ffma_kernel.sass" | awk '{print $NF}' | sed 's/\..*//' |
  sort | uniq -c | sort -rn >"$results/ffma_kernel_sass_histogram.txt" || true
head -n 12 "$results/ffma_kernel_sass_histogram.txt"

echo "== 2. monitor_device_check"
"$bin/monitor_device_check" --ncu-inst "$ncu_inst" --ncu-fma "$ncu_fma" 2>&1 | tee "$results/check.txt"
check_failures=${PIPESTATUS[0]}

echo "== 3. opengpa monitor while another process works"
# `times` after the command: the monitor process's own CPU time (user, system) for the cost estimate.
( "$bin/opengpa" monitor --counters nvml,pm --interval-ms 200 --duration-s 5 --force --csv "$results/cli.csv" \
    --prometheus 127.0.0.1:9464 >"$results/cli_stdout.txt" 2>"$results/cli_stderr.txt"; status=$?
  times >"$results/cli_cpu_times.txt"; exit $status ) &
cli=$!
sleep 1.2
(sleep 1.2
 python3 - "$results" <<'PY'
import sys, urllib.request
results = sys.argv[1]
for name, accept in (("openmetrics", "application/openmetrics-text; version=1.0.0"), ("prometheus", "text/plain")):
    request = urllib.request.Request("http://127.0.0.1:9464/metrics", headers={"Accept": accept})
    with urllib.request.urlopen(request, timeout=5) as response:
        open(f"{results}/scrape_{name}.txt", "w").write(response.read().decode())
        print(name, response.status, response.headers["Content-Type"])
PY
) &
scraper=$!
busy_begin=$(date +%s%N)
"$bin/monitor_device_check" --busy-seconds 2 >"$results/busy.txt" 2>&1
busy_end=$(date +%s%N)
wait $scraper
wait $cli
echo "opengpa monitor exit code: $? (stderr: $(tr '\n' ' ' <"$results/cli_stderr.txt"))"
echo "opengpa monitor CPU time over its 5 s (shell 'times': self, then children = the monitor):"; cat "$results/cli_cpu_times.txt"
python3 - "$results" "$busy_begin" "$busy_end" <<'PY'
import csv, sys, collections
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse_openmetrics
from prometheus_client.parser import text_string_to_metric_families as parse_prometheus
results, begin, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
failures = 0
def check(ok, what, detail):
    global failures
    print(("PASS" if ok else "FAIL") + "  " + what.ljust(58) + " " + detail)
    failures += 0 if ok else 1
for name, parse in (("openmetrics", parse_openmetrics), ("prometheus", parse_prometheus)):
    try:
        text = open(f"{results}/scrape_{name}.txt").read()
        families = list(parse(text))
        samples = sum(len(f.samples) for f in families)
        check(len(families) > 10, f"/metrics ({name}) parses with prometheus_client",
              f"{len(families)} families, {samples} samples, e.g. " +
              ", ".join(sorted({f'{f.name}:{f.type}' for f in families})[:4]))
    except Exception as error:
        check(False, f"/metrics ({name}) parses with prometheus_client", repr(error))
rows = list(csv.DictReader(open(f"{results}/cli.csv")))
by = collections.defaultdict(dict)
util = []
for r in rows:
    t = int(r["timestamp_ns"])
    if r["counter"] in ("sm__cycles_active.avg", "gpc__cycles_elapsed.max"):
        by[t][r["counter"]] = float(r["value"])
    if r["counter"] == "gpu_utilization_percent":
        util.append((t, float(r["value"])))
def fraction(lo, hi):
    a = sum(v["sm__cycles_active.avg"] for t, v in by.items() if lo <= t <= hi and len(v) == 2)
    e = sum(v["gpc__cycles_elapsed.max"] for t, v in by.items() if lo <= t <= hi and len(v) == 2)
    return a / e if e else float("nan")
ms = 1_000_000
busy = fraction(begin + 700 * ms, end - 100 * ms)   # the busy process needs ~0.5 s to start CUDA
idle = fraction(begin - 900 * ms, begin - 100 * ms)
check(busy > 0.9 and idle < 0.05, "CLI, other process: PM SM active busy > 0.9, idle < 0.05",
      f"busy {busy:.3f}, idle {idle:.4f}; {len(rows)} CSV rows, {len(by)} PM samples")
busy_util = [v for t, v in util if begin + 1500 * ms <= t <= end]
check(busy_util and min(busy_util) > 80, "CLI, other process: NVML utilisation > 80 while busy",
      f"{busy_util}")
sys.exit(failures)
PY
cross_failures=$?

echo "== 4. clean failures"
"$bin/opengpa" monitor --device 7 --duration-s 1; echo "GPU 7 of 1 -> exit code $?"
"$bin/opengpa" monitor --counters no_such_counter --duration-s 1; echo "unknown counter -> exit code $?"
"$bin/opengpa" monitor --counters sm__throughput.avg.pct_of_peak_sustained_elapsed --duration-s 1
echo "multi-pass PM metric -> exit code $?"
one_process_failures=0
if [[ -x $bin/one_process_check ]]; then
  echo "== 5. the monitor and libGPUPerfAPICUDA.so in one process"
  "$bin/one_process_check" 2>&1 | tee "$results/one_process.txt"
  one_process_failures=${PIPESTATUS[0]}
fi
echo "failures: check=$check_failures cross-process=$cross_failures one-process=$one_process_failures"
[[ -n ${OUT:-} ]] && tar czf "$OUT/monitor_results.tgz" -C "$results" .
exit $((check_failures + cross_failures + one_process_failures))
