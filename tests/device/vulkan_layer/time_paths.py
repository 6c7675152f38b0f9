#!/usr/bin/env python3
"""Medians of each sample's GPUTime over time_paths.sh's rounds: core queries, the layer, and both with timestamps
only (no sampler triggers recorded). The two recording paths must agree within 2 % or 1 µs, and each must read
its timestamps-only time within as much (the timing counters have a pass of their own, with no trigger in it); each
is printed with the gap from the previous sample's end to the sample's first timestamp (ExecutionStart,
ExecutionEnd), where what the paths record between samples shows. Exits 1 when a sample's paths disagree, or one
disagrees with its timestamps-only time.
  time_paths.py FOLDER     (core_N.csv, layer_N.csv, plain_N.csv, layerplain_N.csv)"""
import csv
import glob
import os
import statistics
import sys


def medians(folder, kind):
    times = {}
    for path in sorted(glob.glob(os.path.join(folder, f"{kind}_*.csv"))):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("GPUTime"):
                    times.setdefault(row["Sample"], []).append(float(row["GPUTime"]) / 1000.0)  # ns -> µs
    return {sample: (statistics.median(values), len(values)) for sample, values in times.items()}


def gaps(folder, kind):
    """Median µs from the previous sample's end to each sample's first timestamp, in the order the samples ran."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, f"{kind}_*.csv"))):
        with open(path, newline="") as f:
            rows = [r for r in csv.DictReader(f) if r.get("ExecutionStart") and r.get("ExecutionEnd")]
        rows.sort(key=lambda r: float(r["ExecutionStart"]))
        for before, row in zip(rows, rows[1:]):
            gap = float(row["ExecutionStart"]) - float(before["ExecutionEnd"])
            found.setdefault(row["Sample"], []).append(gap / 1000.0)
    return {sample: statistics.median(values) for sample, values in found.items()}


def close(a, b):
    """Within 2 % or 1 µs."""
    return abs(b - a) <= max(0.02 * a, 1.0)


def cell(table, sample, digits=2):
    value = table.get(sample)
    if isinstance(value, tuple):
        value = value[0]
    return "-" if value is None else f"{value:.{digits}f}"


def main():
    folder = sys.argv[1]
    core, layer, plain, layer_plain = (medians(folder, kind) for kind in ("core", "layer", "plain", "layerplain"))
    core_gap, layer_gap, plain_gap, layer_plain_gap = (gaps(folder, kind)
                                                       for kind in ("core", "layer", "plain", "layerplain"))
    failures = 0
    print("| sample | core µs | layer µs | layer / core | timestamps only µs (core / layer) | gap before it µs "
          "(core / layer; timestamps only core / layer) | runs |")
    print("|---|---|---|---|---|---|---|")
    for sample in sorted(set(core) & set(layer)):
        (a, n), (b, _) = core[sample], layer[sample]
        ok = close(a, b)
        truth = [close(a, plain[sample][0]) if sample in plain else True,
                 close(b, layer_plain[sample][0]) if sample in layer_plain else True]
        failures += not ok + (not all(truth))
        print(f"| {sample} | {a:.2f} | {b:.2f} | {b / a:.4f}{'' if ok else ' FAIL'} | {cell(plain, sample)} / "
              f"{cell(layer_plain, sample)}{'' if all(truth) else ' FAIL'} | {cell(core_gap, sample, 1)} / "
              f"{cell(layer_gap, sample, 1)}; "
              f"{cell(plain_gap, sample, 1)} / {cell(layer_plain_gap, sample, 1)} | {n} |")
    print(f"time_paths: {len(set(core) & set(layer))} samples compared, {failures} comparison(s) outside 2 % or 1 µs")
    return 1 if failures or not core else 0


if __name__ == "__main__":
    sys.exit(main())
