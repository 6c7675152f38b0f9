#!/usr/bin/env python3
"""One line per kernel (or NVTX range) of an `opengpa profile` CSV: samples, median DRAM bytes read and
written, median GPU time, and the instruction count (one value when every launch has the same count,
else min..max). Used by bench/profile/range_probe.sh to compare range modes on the device.

Usage: summarize_csv.py PROFILE.csv
"""
import collections
import csv
import statistics
import sys

GPA_NAMES = {"dram__bytes_read.sum": "FetchSize", "dram__bytes_write.sum": "WriteSize",
             "gpu__time_duration.sum": "GPUTime"}


def main(path):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError as error:
        print(f"  no csv: {error}")
        return
    by_name = collections.defaultdict(list)
    for row in rows:
        by_name[row.get("kernel") or row.get("name") or "?"].append(row)
    print(f"  rows {len(rows)}")
    for name, group in sorted(by_name.items()):
        def values(column):
            # GPA names where the raw metric was not measured (FetchSize and WriteSize are in KB).
            column = column if column in group[0] else GPA_NAMES.get(column, column)
            return [float(r[column]) for r in group if r.get(column) not in (None, "", "nan")]

        def median(column):
            found = values(column)
            return f"{statistics.median(found):.0f}" if found else "-"

        inst = values("smsp__inst_executed.sum")
        inst_text = "-" if not inst else (
            f"{inst[0]:.0f}" if min(inst) == max(inst) else f"{min(inst):.0f}..{max(inst):.0f}")
        print(f"  {name[:40]:40} n={len(group):5} rd={median('dram__bytes_read.sum'):>10} "
              f"wr={median('dram__bytes_write.sum'):>10} ns={median('gpu__time_duration.sum'):>8} inst={inst_text}")


if __name__ == "__main__":
    main(sys.argv[1])
