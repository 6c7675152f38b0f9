#!/usr/bin/env python3
"""Judges one case of fine_interval.sh: the monitor's PM CSV against the copy loops' own byte counts (one loop per
GPU, matched by UUID): DRAM bytes within 1 % over the loop's window, no hole between consecutive samples while the
loop ran, no record dropped before the CSV, the monitor exited 0. --report-only prints the same figures (and the
monitor's account of lost time) without judging, for an interval the host is not expected to keep up with.
Exits with the number of failures."""
import argparse
import json
import sys

from two_gpus_check import PM_READ, PM_WRITE, bytes_in, holes, load_records


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", required=True)
    parser.add_argument("--loops", nargs="+", required=True)
    parser.add_argument("--interval-us", type=float, required=True)
    parser.add_argument("--monitor-status", type=int, required=True)
    parser.add_argument("--monitor-stderr", required=True)
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    failures = 0

    def check(ok, what, detail):
        nonlocal failures
        judged = "INFO" if args.report_only else ("PASS" if ok else "FAIL")
        failures += 0 if ok or args.report_only else 1
        print(f"{judged} {what}: {detail}")

    stderr = open(args.monitor_stderr).read()
    check(args.monitor_status == 0, "monitor exit status", args.monitor_status)
    check("dropped" not in stderr, "no record dropped before the CSV",
          next((line for line in stderr.splitlines() if "dropped" in line), "none said"))
    series = load_records(args.csv)
    interval_ns = int(args.interval_us * 1000)
    for path in args.loops:
        loop = json.load(open(path))
        counters = series.get(loop["uuid"], {})
        begin, end = loop["begin_ns"], loop["end_ns"]
        for metric, truth in ((PM_READ, loop["bytes_read"]), (PM_WRITE, loop["bytes_written"])):
            if metric not in counters:
                continue
            inside, outside = bytes_in(counters[metric], begin, end)
            ratio = inside / truth if truth else 0.0
            check(abs(ratio - 1) <= 0.01, f"GPU {loop['gpu']} {metric} / the loop's bytes",
                  f"{ratio:.5f} ({inside:.4g} of {truth:.4g}; {outside:.3g} outside the window; "
                  f"{len(counters[metric])} samples)")
        first = counters.get(PM_READ, [])
        found = holes(first, begin, end, interval_ns)
        lost_ms = sum(length for _, length in found) / 1e6
        check(not found, f"GPU {loop['gpu']} no hole between samples in the loop's {(end - begin) / 1e9:.2f} s",
              f"{len(found)} holes, {lost_ms:.1f} ms")
    for line in stderr.splitlines():
        if "lost" in line or "covered" in line or "Maximum resident" in line or "User time" in line:
            print(f"  monitor: {line.strip()}")
    return failures


if __name__ == "__main__":
    sys.exit(main())
