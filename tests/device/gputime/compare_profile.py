#!/usr/bin/env python3
"""`opengpa profile --api cuda` against ncu on the same launches (gputime_device_check --workload run under each):
every kernel's gpu__time_duration within 2% or 2 us of ncu's, and GR busy over elapsed cycles (its range's idle
share) printed. With the check's CSV (gputime_device_check --csv), the CLI's GPUTime (the catalog's formula through
the same engine as GPA's) is also checked against each kernel's unprofiled CUPTI activity duration: within 2% or
1 us (the DRAM-bound copy printed only: its truth comes from another process).
Usage: compare_profile.py PROFILE.csv NCU.csv [CHECK.csv]; exit code = failures."""
import csv
import sys


def ncu_values(path):
    values = {}
    with open(path, newline="") as f:
        rows = [line for line in f if line.startswith('"')]
    for row in csv.DictReader(rows):
        try:
            values.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            pass
    return [values[k] for k in sorted(values)]


def activity_truths(path):
    """Kernel label -> its unprofiled activity duration (ns), in the check's order of kernels (rotation 0)."""
    truths = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["rotation"] == "0" and row["activity_truth_ns"] not in ("", "nan"):
                truths.setdefault(row["sample"], float(row["activity_truth_ns"]))
    return list(truths.values())


def main():
    with open(sys.argv[1], newline="") as f:
        profile = list(csv.DictReader(f))
    ncu = ncu_values(sys.argv[2])
    truth = activity_truths(sys.argv[3]) if len(sys.argv) > 3 else []
    failures = 0
    print(f"{'launch':>6} {'kernel':<10} {'opengpa profile us':>18} {'ncu us':>10} {'diff us':>8} {'GR busy %':>9}"
          f" {'GPUTime us':>10} {'activity us':>11} {'diff us':>8}")
    if len(profile) != len(ncu):
        print(f"FAIL  {len(profile)} launches profiled by opengpa, {len(ncu)} by ncu")
        return 1
    for i, (row, reference) in enumerate(zip(profile, ncu)):
        ours = float(row["gpu__time_duration.sum"])
        theirs = reference["gpu__time_duration.sum"]
        busy = 100 * float(row["gr__cycles_active.avg"]) / float(row["gr__cycles_elapsed.avg"])
        ok = abs(ours - theirs) <= max(0.02 * theirs, 2000)
        line = (f"{i:>6} {row['kernel'][:10]:<10} {ours / 1e3:>18.2f} {theirs / 1e3:>10.2f} "
                f"{(ours - theirs) / 1e3:>+8.2f} {busy:>9.2f}")
        if "GPUTime" in row and i < len(truth):
            gpu_time = float(row["GPUTime"])
            line += f" {gpu_time / 1e3:>10.2f} {truth[i] / 1e3:>11.2f} {(gpu_time - truth[i]) / 1e3:>+8.2f}"
            if "Copy" in row["kernel"]:
                # The DRAM-bound copy's duration varies about 2.5% from one process to the next (docs/cuda.md):
                # the truth comes from another process than this run.
                line += " (copy: INFO)"
            else:
                ok = ok and abs(gpu_time - truth[i]) <= max(0.02 * truth[i], 1000)
        failures += not ok
        print(f"{line}  {'PASS' if ok else 'FAIL'}")
    print(f"{failures} failure(s)")
    return failures


if __name__ == "__main__":
    sys.exit(main())
