#!/usr/bin/env python3
"""Launch by launch, an `opengpa profile` CSV against a reference CSV of the same program (bench/profile/
gate_probe.sh: gated user ranges against auto ranges, issue 12): how many launches have the same instruction
count, and how GPU time and DRAM bytes differ (median and largest), plus the launch whose DRAM writes are
largest in each (the PyTorch first-launch check). Launches are matched by their index in the process.

Usage: gate_compare.py REFERENCE.csv OTHER.csv
"""
import csv
import statistics
import sys

TIME, READ, WRITE, INST = ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                           "smsp__inst_executed.sum")


def read(path):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError as error:
        sys.exit(f"  no csv {path}: {error}")
    by_index = {}
    for row in rows:
        values = {}
        for column in (TIME, READ, WRITE, INST):
            try:
                values[column] = float(row[column])
            except (KeyError, ValueError):
                values[column] = float("nan")
        by_index[(row.get("pid", ""), int(row["index"]))] = (row["kernel"], values)
    return by_index


def main(reference_path, other_path):
    reference, other = read(reference_path), read(other_path)
    # Processes differ between runs: match by launch index alone when each run has one process.
    if len({key[0] for key in reference}) == 1 and len({key[0] for key in other}) == 1:
        reference = {key[1]: value for key, value in reference.items()}
        other = {key[1]: value for key, value in other.items()}
    common = sorted(set(reference) & set(other))
    same_inst = sum(1 for key in common if reference[key][1][INST] == other[key][1][INST])
    print(f"  launches: reference {len(reference)}, other {len(other)}, both {len(common)}; "
          f"instruction count equal in {same_inst}")
    for column, unit in ((TIME, "ns"), (READ, "B"), (WRITE, "B")):
        differences = [other[key][1][column] - reference[key][1][column] for key in common]
        ratios = [other[key][1][column] / reference[key][1][column] for key in common
                  if reference[key][1][column] > 0]
        if not differences:
            continue
        total_reference = sum(reference[key][1][column] for key in common)
        total_other = sum(other[key][1][column] for key in common)
        print(f"  {column:24} sum {total_reference:.0f} -> {total_other:.0f} {unit}; difference per launch: median "
              f"{statistics.median(differences):+.0f}, largest {max(differences, key=abs):+.0f} {unit}; ratio median "
              f"{statistics.median(ratios) if ratios else float('nan'):.4f}")
    for label, runs in (("reference", reference), ("other", other)):
        key = max(runs, key=lambda k: runs[k][1][WRITE] if runs[k][1][WRITE] == runs[k][1][WRITE] else -1)
        name, values = runs[key]
        print(f"  largest DRAM write, {label}: launch {key} {name[:50]} write {values[WRITE]:.0f} B "
              f"read {values[READ]:.0f} B time {values[TIME]:.0f} ns")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
