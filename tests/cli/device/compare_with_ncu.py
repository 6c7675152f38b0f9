#!/usr/bin/env python3
"""Compares `opengpa profile` with `ncu --csv` on the same program, launch by launch (docs/cli.md).

Usage: compare_with_ncu.py OPENGPA_JSON NCU_CSV LOG_TXT
Prints Markdown: wall times (from the TIME lines of the device log), per-kernel agreement of every metric,
and ground truth the workload fixes (FFMA count, DRAM bytes of the streaming kernels).
"""
import csv
import json
import re
import statistics
import sys

N = 1 << 24            # floats per array in tests/cli/device/cuda_kernel_workload.cu
FFMA_THREADS = 1 << 20


def base_name(kernel):
    name = kernel.split("(")[0].strip()
    return name.split()[-1] if name else kernel


def read_ncu(path):
    lines = [line for line in open(path) if line.startswith('"')]
    launches = {}
    for row in csv.DictReader(lines):
        value = row["Metric Value"].replace(",", "")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        entry = launches.setdefault(int(row["ID"]), {"kernel": row["Kernel Name"], "values": {}})
        entry["values"][row["Metric Name"]] = number
    return [launches[i] for i in sorted(launches)]


def readable(value):
    return f"{value:.0f}" if abs(value) >= 1e6 else f"{value:.6g}"


def relative(a, b):
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def main():
    ours = json.load(open(sys.argv[1]))
    theirs = read_ncu(sys.argv[2])
    times = dict(re.findall(r"^TIME (\w+) ([0-9.]+)", open(sys.argv[3]).read(), re.M))
    samples = ours["samples"]
    metrics = [c["name"] for c in ours["counters"]]

    print(f"Device: {ours['device']}; {len(samples)} launches profiled by opengpa, {len(theirs)} by ncu.\n")
    print("| run | wall time (s) | vs. plain run |")
    print("|---|---:|---:|")
    plain = float(times.get("plain", "nan"))
    for key, label in (("plain", "workload alone"), ("opengpa", "`opengpa profile --api cuda`"),
                       ("ncu", "`ncu --metrics … --csv`")):
        if key in times:
            print(f"| {label} | {float(times[key]):.2f} | {float(times[key]) / plain:.1f}x |")
    if "opengpa" in times and "ncu" in times:
        print(f"\nopengpa took {float(times['opengpa']) / float(times['ncu']) * 100:.0f}% of ncu's wall time.\n")

    count = min(len(samples), len(theirs))
    mismatched = [i for i in range(count) if base_name(samples[i]["kernel"]) != base_name(theirs[i]["kernel"])]
    print(f"Launches matched by order: {count}; kernel names that differ: {len(mismatched)}.\n")

    per_kernel = {}
    for i in range(count):
        kernel = base_name(samples[i]["kernel"])
        for metric in metrics:
            a = samples[i]["values"].get(metric)
            b = theirs[i]["values"].get(metric)
            if a is None or b is None:
                continue
            per_kernel.setdefault((kernel, metric), []).append((a, b))
    print("| kernel | metric | launches | mean opengpa | mean ncu | median rel. diff | max rel. diff |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (kernel, metric), pairs in sorted(per_kernel.items()):
        diffs = [relative(a, b) for a, b in pairs]
        print(f"| {kernel} | {metric} | {len(pairs)} | {readable(statistics.mean(a for a, _ in pairs))} | "
              f"{readable(statistics.mean(b for _, b in pairs))} | {statistics.median(diffs) * 100:.2f}% | "
              f"{max(diffs) * 100:.2f}% |")

    print("\nGround truth fixed by the workload:\n")
    print("| check | expected | opengpa | ncu |")
    print("|---|---:|---:|---:|")
    ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
    exact_ours = exact_ncu = total = 0
    if ffma not in metrics:
        count_for_ffma = 0
    else:
        count_for_ffma = count
    for i in range(count_for_ffma):
        if base_name(samples[i]["kernel"]) != "ffma":
            continue
        iters = 64 * (1 + (i // 4) % 4)
        total += 1
        exact_ours += samples[i]["values"].get(ffma) == FFMA_THREADS * iters
        exact_ncu += theirs[i]["values"].get(ffma) == FFMA_THREADS * iters
    if total:
        print(f"| ffma launches whose FFMA count = threads x iters exactly | {total} | {exact_ours} | {exact_ncu} |")
    for kernel, read_bytes in (("add", 8 * N), ("scale", 4 * N)):
        pairs = per_kernel.get((kernel, "dram__bytes_read.sum"), [])
        if pairs:
            print(f"| {kernel}: mean dram__bytes_read.sum (expected {read_bytes} = arrays read) | {read_bytes} | "
                  f"{readable(statistics.mean(a for a, _ in pairs))} | "
                  f"{readable(statistics.mean(b for _, b in pairs))} |")


if __name__ == "__main__":
    main()
