#!/usr/bin/env python3
"""Medians of each sample's GPUTime over time_paths.sh's rounds: core queries, the layer, and timestamps only (no
sampler triggers recorded). The two recording paths must agree within 2 % or 1 µs; each is printed beside the
timestamps-only time, which holds no trigger. Exits 1 when a sample's paths disagree.
  time_paths.py FOLDER     (core_N.csv, layer_N.csv, plain_N.csv)"""
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


def main():
    core, layer, plain = (medians(sys.argv[1], kind) for kind in ("core", "layer", "plain"))
    failures = 0
    print("| sample | core µs | layer µs | layer / core | timestamps only µs | runs |")
    print("|---|---|---|---|---|---|")
    for sample in sorted(set(core) & set(layer)):
        (a, n), (b, _) = core[sample], layer[sample]
        ok = abs(b - a) <= max(0.02 * a, 1.0)
        failures += not ok
        reference = f"{plain[sample][0]:.2f}" if sample in plain else "-"
        print(f"| {sample} | {a:.2f} | {b:.2f} | {b / a:.4f}{'' if ok else ' FAIL'} | {reference} | {n} |")
    print(f"time_paths: {len(set(core) & set(layer))} samples compared, {failures} outside 2 % or 1 µs")
    return 1 if failures or not core else 0


if __name__ == "__main__":
    sys.exit(main())
