#!/usr/bin/env python3
"""Checks the counters AMD's gl_triangle and vk_color_cube printed on an NVIDIA GPU against their draws.

gl_triangle draws one triangle, (0, 0.75), (-0.75, -0.75), (0.75, -0.75) in normalized coordinates, into an 800 x 800
viewport: 3 vertices and 0.5 x 600 x 600 = 180,000 pixels. Usage: check_amd_examples.py OUT (run.sh's folder).
"""
import csv
import os
import sys

TRIANGLE_VERTICES = 3
TRIANGLE_PIXELS = (1.5 * 800 / 2) * (1.5 * 800 / 2) / 2


def rows(path):
    """The rows of an AMD sample's counter CSV (its header lines before the column names are skipped)."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(("Frame,", "Sample Id,"))]
    return list(csv.DictReader(lines[starts[0]:])) if starts else []


def main(out):
    failures = []
    for name in ("gl_triangle_all", "gl_triangle_hw"):
        path = os.path.join(out, name + ".csv")
        if not os.path.exists(path):
            failures.append(f"{name}: no counter file")
            continue
        if not rows(path):
            failures.append(f"{name}: no counter values (see {name}.log)")
        for row in rows(path):
            row = {k: v for k, v in row.items() if k}
            print(name, {k: row[k] for k in row if k in (
                "Frame", "GPUTime", "VSVerticesIn", "PSPixelsIn", "SamplesPassed", "VSWarps", "PSWarps", "PSQuads",
                "GPUBusy", "PSBusy", "VSBusy", "sm__threads_launched_shader_vs.sum",
                "sm__threads_launched_shader_ps_killmask_off.sum")})
            for counter, truth in (("SamplesPassed", TRIANGLE_PIXELS), ("VSVerticesIn", TRIANGLE_VERTICES)):
                if counter in row and float(row[counter]) != truth:
                    failures.append(f"{name} frame {row.get('Frame')}: {counter} {row[counter]} != {truth:g}")
            if "VSWarps" in row and float(row["VSWarps"]) < 1:
                failures.append(f"{name} frame {row.get('Frame')}: VSWarps {row['VSWarps']}: no vertex-shader warp")
    for name in ("vk_color_cube_ps", "vk_color_cube_vs"):
        path = os.path.join(out, name + ".csv")
        if not os.path.exists(path):
            failures.append(f"{name}: no counter file")
            continue
        if not rows(path):
            failures.append(f"{name}: no counter values (see {name}.log)")
        for row in rows(path):
            print(name, {k: v for k, v in row.items() if k})
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
