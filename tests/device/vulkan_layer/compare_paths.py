#!/usr/bin/env python3
"""Compares two CSVs of opengpa_vk_sample: one recorded through core Vulkan queries, one through the layer's
VK_AMD_gpa_interface (VK_INSTANCE_LAYERS=VK_LAYER_OPENGPA_gpa_interface). The counters that count work (threads,
warps, instructions, vertices, pixels of each shader stage) must be equal per sample on both paths, and the
sample's GPU time must agree within 2 % or 1 µs (two runs of the same work); every other counter both have is printed
with its relative difference. Usage: compare_paths.py CORE.csv LAYER.csv"""

import csv
import sys

EXACT = {"VSVerticesIn", "VSWarps", "VSInsts", "HSPatches", "DSVerticesIn", "GSPrimsIn", "PSPixelsIn", "PSQuads",
         "PSWarps", "PSInsts", "CSThreads", "CSWavefronts", "CSInsts", "CSThreadGroups"}

# GPA's times are in milliseconds: (relative, absolute) tolerance.
TIMES = {"GPUTime": (0.02, 0.001)}


def read(path):
    with open(path, newline="") as f:
        return {row["Sample"]: row for row in csv.DictReader(f)}


def main():
    core, layer = read(sys.argv[1]), read(sys.argv[2])
    failures = compared = 0
    for sample in sorted(set(core) & set(layer)):
        for name in core[sample]:
            if name in ("Device", "SampleId", "Sample") or name not in layer[sample]:
                continue
            try:
                a, b = float(core[sample][name]), float(layer[sample][name])
            except ValueError:
                continue
            difference = (b - a) / a if a else (0.0 if b == 0 else float("inf"))
            exact = name in EXACT
            if exact:
                ok = a == b
            elif name in TIMES:
                relative, absolute = TIMES[name]
                ok = abs(b - a) <= max(relative * abs(a), absolute)
            else:
                ok = True
            compared += exact or name in TIMES
            failures += not ok
            judged = " exact" if exact else " within 2 % or 1 us" if name in TIMES else ""
            print(f"{'FAIL' if not ok else 'ok  '} {sample:12} {name:28} core {a:16.6g} layer {b:16.6g} "
                  f"({difference:+.2%}){judged}")
    print(f"compare_paths: {compared} exact counter values and times compared, {failures} differ")
    return 1 if failures or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
