#!/usr/bin/env python3
"""--range-mode nvtx against the kernel range mode on the same program (bench/profile/nvtx_range_check.sh):
each NVTX range's sample must hold the sums of the samples of the kernels launched inside it.

Usage: nvtx_range_check.py KERNELS.csv RANGES.csv LAUNCHES_PER_RANGE
Prints, over the ranges: how many have exactly the summed instruction count, and the median and largest
relative difference of DRAM bytes read, written and GPU time against the sums.
"""
import csv
import statistics
import sys

METRICS = ["smsp__inst_executed.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"]


def main(kernels_path, ranges_path, per_range):
    kernels = sorted(csv.DictReader(open(kernels_path)), key=lambda r: int(r["index"]))
    ranges = sorted(csv.DictReader(open(ranges_path)), key=lambda r: int(r["index"]))
    sums = []
    for start in range(0, len(kernels), per_range):
        group = kernels[start:start + per_range]
        sums.append({m: sum(float(r[m]) for r in group) for m in METRICS})
    print(f"{len(kernels)} kernel samples in {len(sums)} groups of {per_range}; {len(ranges)} NVTX range samples "
          f"named {sorted(set(r['kernel'] for r in ranges))}")
    pairs = list(zip(ranges, sums))
    exact = sum(1 for r, s in pairs if float(r[METRICS[0]]) == s[METRICS[0]])
    print(f"  {METRICS[0]}: the sum exactly in {exact} of {len(pairs)} ranges "
          f"(first range {float(pairs[0][0][METRICS[0]]):.0f}, sum {pairs[0][1][METRICS[0]]:.0f})" if pairs else "")
    for metric in METRICS[1:]:
        differences = [(float(r[metric]) - s[metric]) / s[metric] for r, s in pairs if s[metric] > 0]
        if differences:
            median_range = statistics.median(float(r[metric]) for r, _ in pairs)
            print(f"  {metric}: range / sum - 1: median {statistics.median(differences):+.4%}, "
                  f"largest {max(differences, key=abs):+.4%}; median range {median_range:.0f}, "
                  f"median sum {statistics.median(s[metric] for _, s in pairs):.0f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
