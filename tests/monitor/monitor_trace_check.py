"""`opengpa monitor --trace` end to end on tests/monitor's fixed-power fake NVML (one device drawing 123.456 W):
the trace validates against docs/schema/chrome-trace.schema.json, holds one counter event per record of the CSV
written beside it, with the CSV's value, in the CSV's order and at the CSV's times (each event's offset from the
first equal to the records' to the microsecond), and names the GPU's trace process.

    python3 tests/monitor/monitor_trace_check.py --opengpa build/bin/opengpa \\
        --fake-nvml build/tests/monitor/libopengpa_fake_nvml_fixed_power.so --work /tmp/m
"""

import argparse
import csv
import json
import os
import pathlib
import subprocess
import sys

import jsonschema

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--fake-nvml", required=True)
    parser.add_argument("--work", required=True, type=pathlib.Path)
    arguments = parser.parse_args()
    arguments.work.mkdir(parents=True, exist_ok=True)
    trace_path, csv_path = arguments.work / "monitor.trace.json", arguments.work / "monitor.csv"
    environment = dict(os.environ, OPENGPA_NVML_LIBRARY=arguments.fake_nvml)
    result = subprocess.run([arguments.opengpa, "monitor", "--counters", "power_watts", "--interval-ms", "50",
                             "--duration-s", "0.6", "--csv", str(csv_path), "--trace", str(trace_path), "-f"],
                            env=environment, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        fail(f"opengpa monitor exited {result.returncode}: {result.stderr}")
    trace = json.loads(trace_path.read_text())
    schema = json.loads((REPOSITORY / "docs" / "schema" / "chrome-trace.schema.json").read_text())
    jsonschema.validate(trace, schema)
    with open(csv_path) as table:
        rows = list(csv.DictReader(table))
    events = [e for e in trace["traceEvents"] if e["ph"] == "C"]
    names = [e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "M"]
    if names != ["GPU 0: Fake NVML device"]:
        fail(f"trace processes {names}")
    if len(rows) < 5 or len(events) != len(rows):
        fail(f"{len(events)} counter events for {len(rows)} CSV records")
    starts = [int(r["timestamp_ns"]) - int(r["duration_ns"]) for r in rows]
    for row, event, start in zip(rows, events, starts):
        if event["name"] != f"{row['counter']} ({row['unit']})" or event["args"]["value"] != float(row["value"]):
            fail(f"event {event} for record {row}")
        if event["pid"] != int(row["gpu"]) + 1:
            fail(f"event {event} is not on GPU {row['gpu']}'s process")
        offset_us = event["ts"] - events[0]["ts"]
        if abs(offset_us - (start - starts[0]) / 1000) > 0.01:
            fail(f"event at {offset_us} us from the first, the record at {(start - starts[0]) / 1000} us")
    existing = trace_path.stat().st_mtime_ns
    refused = subprocess.run([arguments.opengpa, "monitor", "--duration-s", "0.1", "--trace", str(trace_path)],
                             env=environment, capture_output=True, text=True, timeout=60)
    if refused.returncode == 0 or "--trace" not in refused.stderr or trace_path.stat().st_mtime_ns != existing:
        fail(f"an existing --trace file without -f: exit {refused.returncode}, {refused.stderr!r}")
    print(f"passed: {len(events)} records, {events[-1]['ts'] - events[0]['ts']:.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
