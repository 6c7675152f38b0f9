#!/usr/bin/env python3
"""Checks the counters AMD's gl_triangle and vk_color_cube printed on an NVIDIA GPU against their draws.

gl_triangle draws one triangle, (0, 0.75), (-0.75, -0.75), (0.75, -0.75) in normalized coordinates, into an 800 x 800
viewport: 3 vertices and 0.5 x 600 x 600 = 180,000 pixels.

vk_color_cube draws its cube (36 non-indexed vertices) three times a frame, each into a third of its 900 x 300 window:
sample 0 the filled cube (back faces culled), sample 1 its wireframe (white lines, no culling), sample 2 both (72
vertices). Its vertex shader scales the cube to a third and tilts it about the x axis, which leaves the +-x faces
edge-on: the filled cube covers exactly the rectangle of its projected corners (cube_pixels()). The wireframe's
pixels follow the rasterizer's line rules, which this script does not model: sample 2 must equal sample 0 plus
sample 1. Where run.sh had the headless layer write a presented frame (a PPM), its first third must hold the cube.
Usage: check_amd_examples.py OUT [PROGRAM...] (run.sh's folder; gl_triangle, vk_color_cube, default both).
"""
import csv
import math
import os
import sys

TRIANGLE_VERTICES = 3
TRIANGLE_PIXELS = (1.5 * 800 / 2) * (1.5 * 800 / 2) / 2
CUBE_VERTICES = 36
CUBE_WINDOW = (900, 300)  # AMD's kDefaultWindowWidth, kDefaultWindowHeight
CUBE_SAMPLE_VERTICES = {0: CUBE_VERTICES, 1: CUBE_VERTICES, 2: 2 * CUBE_VERTICES}


def cube_pixels():
    """Pixels of vk_color_cube's filled cube in its 300 x 300 viewport, from its vertex shader's arithmetic.

    A corner (x, y, z) in {-1, 1}^3 becomes (x / 3, y / 3 * cos(t) - z / 3 * sin(t)) with t = -30 degrees (the
    shader's row vector times its tilt matrix), with w = 1; the viewport maps [-1, 1] to [0, 300] in both axes.
    A pixel is covered when its center lies inside; no center lies on an edge here (the edges sit at whole pixels
    in x and at 81.70 / 218.30 in y).
    """
    size = CUBE_WINDOW[0] // 3
    tilt = math.radians(-30.0)
    xs, ys = [], []
    for x in (-1, 1):
        for y in (-1, 1):
            for z in (-1, 1):
                xs.append((x / 3 + 1) * size / 2)
                ys.append((y / 3 * math.cos(tilt) - z / 3 * math.sin(tilt) + 1) * size / 2)

    def centers(low, high):
        return sum(1 for i in range(size) if low < i + 0.5 < high)
    return centers(min(xs), max(xs)) * centers(min(ys), max(ys))


def device_name(path):
    """The 'Device Name:' line of an AMD sample's counter CSV, or ''."""
    with open(path) as f:
        for line in f:
            if line.startswith("Device Name:"):
                return line.split(":", 1)[1].strip()
    return ""


def frame_pixels(path):
    """Per third of a binary PPM frame: (pixels not black, pixels white)."""
    with open(path, "rb") as f:
        data = f.read()
    magic, size, depth, pixels = data.split(b"\n", 3)
    width, height = map(int, size.split())
    third = width // 3
    counts = []
    for part in range(3):
        lit = white = 0
        for row in range(height):
            start = (row * width + part * third) * 3
            line = pixels[start:start + third * 3]
            for i in range(0, len(line), 3):
                pixel = line[i:i + 3]
                lit += pixel != b"\0\0\0"
                white += pixel == b"\xff\xff\xff"
        counts.append((lit, white))
    return counts


def rows(path):
    """The rows of an AMD sample's counter CSV (its header lines before the column names are skipped)."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(("Frame,", "Sample Id,"))]
    return list(csv.DictReader(lines[starts[0]:])) if starts else []


def program_rows(out, name, failures):
    """The rows of run.sh's `name`.csv; a missing or empty file is a failure."""
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        failures.append(f"{name}: no counter file")
        return []
    found = rows(path)
    if not found:
        failures.append(f"{name}: no counter values (see {name}.log)")
    return found


def check_color_cube(out, name, failures):
    """vk_color_cube's samples against its draws (module docstring); its presented frame against the cube."""
    truth = cube_pixels()
    wire_lit = None
    frame = os.path.join(out, name + ".ppm")
    if os.path.exists(frame):
        thirds = frame_pixels(frame)
        print(name, "presented frame, per third (pixels lit, white):", thirds, "cube truth", truth)
        if thirds[0][0] != truth:
            failures.append(f"{name}: the presented cube covers {thirds[0][0]} pixels, its geometry {truth}")
        wire_lit = thirds[1][0]
    rows = program_rows(out, name, failures)
    if not rows:
        return
    nvidia = "NVIDIA" in device_name(os.path.join(out, name + ".csv")).upper()
    samples = {}
    for row in rows:
        row = {k: v for k, v in row.items() if k}
        print(name, row)
        samples[int(row["Sample Id"])] = row
    if sorted(samples) != [0, 1, 2]:
        failures.append(f"{name}: samples {sorted(samples)}, not 0, 1, 2")
        return
    for sample, vertices in CUBE_SAMPLE_VERTICES.items():
        if "VSVerticesIn" in samples[sample] and float(samples[sample]["VSVerticesIn"]) != vertices:
            failures.append(f"{name} sample {sample}: VSVerticesIn {samples[sample]['VSVerticesIn']} != {vertices}")
    if "PSPixelsIn" not in samples[0]:
        return
    pixels = [float(samples[i]["PSPixelsIn"]) for i in range(3)]
    if not nvidia:
        # lavapipe's fragment-shader invocation statistic is not a pixel count (14,000 for the cube's 13,600).
        print(name, "PSPixelsIn not compared: not an NVIDIA GPU's thread count")
        return
    if pixels[0] != truth:
        failures.append(f"{name} sample 0: PSPixelsIn {pixels[0]:g} != the cube's {truth} pixels")
    if pixels[2] != pixels[0] + pixels[1]:
        failures.append(f"{name} sample 2: PSPixelsIn {pixels[2]:g} != samples 0 + 1 ({pixels[0] + pixels[1]:g})")
    if wire_lit is not None and pixels[1] < wire_lit:
        failures.append(f"{name} sample 1: PSPixelsIn {pixels[1]:g} < the {wire_lit} pixels its lines lit")


def main(out, programs):
    failures = []
    programs = programs or ["gl_triangle", "vk_color_cube"]
    for name in ("gl_triangle_all", "gl_triangle_hw") if "gl_triangle" in programs else ():
        for row in program_rows(out, name, failures):
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
    for name in ("vk_color_cube_ps", "vk_color_cube_vs") if "vk_color_cube" in programs else ():
        check_color_cube(out, name, failures)
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
