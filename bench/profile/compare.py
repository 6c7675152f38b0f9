#!/usr/bin/env python3
"""Reads what bench/profile/run.sh left (log_<mode>.txt and the extracted results_<mode>.tgz) and prints
the Markdown tables of docs/benchmarks.md: wall times against ncu, the cost per launch, instruction
counts against ncu launch by launch, and multi-pass values against one pass.

Usage: compare.py LOG_TXT RESULTS_DIR
"""
import csv
import json
import re
import statistics
import sys

N_FIXED = 1 << 24  # floats per array of tests/cli/device/cuda_kernel_workload.cu


def times(log):
    found = {}
    for line in open(log):
        match = re.match(r"TIME (\S+) ([0-9.]+) rc=(-?\d+)", line)
        if match:
            found[match.group(1)] = (float(match.group(2)), int(match.group(3)))
    return found


def launches_in(log):
    match = re.search(r"== mode \S+: (\d+) launches", open(log).read())
    return int(match.group(1)) if match else 0


def base_name(kernel):
    name = kernel.split("(")[0].strip()
    return name.split()[-1] if name else kernel


def read_profile(path):
    try:
        data = json.load(open(path))
    except (OSError, ValueError):
        return None
    return [{"kernel": s["kernel"], "values": s["values"]} for s in data["samples"]]


def read_ncu(path):
    try:
        lines = [line for line in open(path) if line.startswith('"')]
    except OSError:
        return None
    launches = {}
    for row in csv.DictReader(lines):
        try:
            number = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            number = float("nan")
        launch = launches.setdefault(int(row["ID"]), {"kernel": row["Kernel Name"], "values": {}})
        launch["values"][row["Metric Name"]] = number
    return [launches[i] for i in sorted(launches)]


def relative(a, b):
    if a is None or b is None:
        return float("nan")
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def wall_table(t, launches):
    print("| run | wall time (s) | ncu / opengpa |")
    print("|---|---:|---:|")
    pairs = [("plain_many", None), ("many_none", "ncu_many_one"), ("many_none_nocache", "ncu_many_one"),
             ("many_none_user_ranges", "ncu_many_one"), ("many_none_nocache_user", "ncu_many_one"),
             ("many_auto_multi", "ncu_many_multi"), ("ncu_many_one", None), ("ncu_many_multi", None),
             ("plain_fixed", None), ("fixed_one", None), ("fixed_app", "ncu_fixed_multi"),
             ("fixed_kernel", "ncu_fixed_multi"), ("ncu_fixed_multi", None),
             ("plain_torch", None), ("torch_gpa", None), ("torch_one", "ncu_torch_one"),
             ("torch_multi", "ncu_torch_multi"), ("ncu_torch_one", None), ("ncu_torch_multi", None)]
    for tag, against in pairs:
        if tag not in t:
            continue
        ratio = f"{t[against][0] / t[tag][0]:.1f}x" if against in t and t[tag][0] > 0 else ""
        print(f"| {tag} | {t[tag][0]:.2f}{'' if t[tag][1] == 0 else f' (rc {t[tag][1]})'} | {ratio} |")
    if "plain_many" in t and "many_none" in t and launches:
        for tag in ("many_none", "many_none_nocache", "many_none_user_ranges", "many_none_nocache_user",
                    "ncu_many_one"):
            if tag in t:
                per_launch = (t[tag][0] - t['plain_many'][0]) / launches * 1000
                print(f"\n{tag}: {per_launch:.3f} ms per launch over the plain run")
    if "many_kernel_small" in t:
        per_launch = t['many_kernel_small'][0] / 400 * 1000
        print(f"\nmany_kernel_small (kernel replay, 400 launches): {per_launch:.2f} ms per launch "
              "(whole wall time / launches)")


def instructions(opengpa, ncu, metric, label):
    if not opengpa or not ncu:
        print(f"\n{label}: missing ({'opengpa' if not opengpa else 'ncu'})")
        return
    same = sum(1 for a, b in zip(opengpa, ncu) if a["values"].get(metric) == b["values"].get(metric))
    names = sum(1 for a, b in zip(opengpa, ncu) if base_name(a["kernel"]) != base_name(b["kernel"]))
    print(f"\n{label}: {len(opengpa)} launches by opengpa, {len(ncu)} by ncu; {metric} identical in {same} of "
          f"{min(len(opengpa), len(ncu))} launches matched in order; kernel names that differ: {names}")


def values(test, reference, metrics, label):
    if not test or not reference:
        print(f"\n{label}: missing")
        return
    print(f"\n{label}: {len(test)} vs {len(reference)} launches\n")
    print("| kernel | counter | mean | mean (one pass) | mean rel. diff | median launch rel. diff |")
    print("|---|---|---:|---:|---:|---:|")
    kernels = sorted({base_name(s["kernel"]) for s in reference})
    for kernel in kernels:
        pairs = [(a, b) for a, b in zip(test, reference) if base_name(b["kernel"]) == kernel]
        for metric in metrics:
            xs = [a["values"].get(metric) for a, _ in pairs]
            ys = [b["values"].get(metric) for _, b in pairs]
            xs, ys = [x for x in xs if x is not None], [y for y in ys if y is not None]
            if not xs or not ys:
                continue
            mx, my = statistics.mean(xs), statistics.mean(ys)
            per_launch = [relative(x, y) for x, y in zip(xs, ys)]
            print(f"| {kernel} | {metric} | {mx:.6g} | {my:.6g} | {relative(mx, my) * 100:.2f}% | "
                  f"{statistics.median(per_launch) * 100:.2f}% |")


def main():
    log, results = sys.argv[1], sys.argv[2]
    t = times(log)
    launches = launches_in(log)
    print(f"### Wall times ({launches} launches of the many-launch program)\n")
    wall_table(t, launches)

    def p(tag):
        return read_profile(f"{results}/{tag}.json")

    def n(tag):
        return read_ncu(f"{results}/ncu_{tag}.csv")
    print("\n### Instruction counts against ncu")
    instructions(p("many_none"), n("many_one"), "smsp__inst_executed.sum", "many-launch, one pass (replay none)")
    instructions(p("many_auto_multi"), n("many_multi"), "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                 "many-launch, multi-pass (auto: application replay), FFMA count")
    instructions(p("many_auto_multi"), n("many_multi"), "smsp__inst_executed.sum",
                 "many-launch, multi-pass, instructions")
    instructions(p("torch_one"), n("torch_one"), "smsp__inst_executed.sum", "PyTorch, one pass")
    instructions(p("torch_multi"), n("torch_multi"), "smsp__inst_executed.sum", "PyTorch, multi-pass")
    instructions(p("fixed_app"), n("fixed_multi"), "smsp__inst_executed.sum", "fixed workload, application replay")
    print("\n### Multi-pass values against one pass (fixed workload, 64 MiB arrays, cache control all)")
    metrics = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_request_hit_rate.pct", "gpu__time_duration.sum"]
    values(p("fixed_app"), p("fixed_one"), metrics, "application replay (multi-pass) vs replay none (one pass)")
    values(p("fixed_kernel"), p("fixed_one"), metrics,
           "kernel replay (multi-pass, flush before the launch only) vs one pass")
    values(p("fixed_kernel_nocache"), p("fixed_one"), metrics, "kernel replay, --cache-control none vs one pass")
    values(n("fixed_multi"), p("fixed_one"), metrics, "ncu (multi-pass, its default flush) vs opengpa one pass")
    print("\n### Many-launch program (4 MiB arrays, in L2): multi-pass vs one pass, cache control all")
    values(p("many_auto_multi"), p("many_none"), metrics[:2] + ["gpu__time_duration.sum"], "application replay vs none")
    values(p("many_none_nocache"), p("many_none"), metrics[:2] + ["gpu__time_duration.sum"],
           "none, --cache-control none vs all")
    filtered = p("many_filtered")
    if filtered is not None:
        print(f"\nfiltered (--kernel-name '^(add|scale)' --launch-skip 10 --launch-count 50): {len(filtered)} samples, "
              f"kernels {sorted({base_name(s['kernel']) for s in filtered})}")
    gpa = p("torch_gpa")
    if gpa is not None:
        print(f"\nPyTorch with GPA names: {len(gpa)} samples, counters {sorted(gpa[0]['values']) if gpa else []}")


if __name__ == "__main__":
    main()
