#!/usr/bin/env python3
"""Prints libGPUPerfAPICUDA.so's raw CUPTI metrics next to ncu's for the same kernels, and fails when a
deterministic counter differs by more than 1%.

Usage: compare_ncu.py gpa_raw.csv ncu.csv
gpa_raw.csv: kernel,metric,value (cuda_device_check); ncu.csv: `ncu --csv --print-units base` output.
"""
import csv
import sys

# ncu kernel name -> our sample names, in launch order.
KERNELS = {"copy_kernel": ["copy"], "ffma_kernel": ["ffma"], "bank_conflict_kernel": ["bank8", "bank1"],
           "l2_reread_kernel": ["l2reread"]}
# Counts that do not depend on timing or cache state, for every kernel.
DETERMINISTIC = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__inst_executed.sum",
                 "smsp__warps_launched.sum", "smsp__thread_inst_executed.sum", "smsp__inst_executed_op_shared_ld.sum",
                 "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}
# Not compared: L2 requests/sectors also count traffic that is not the kernel's (instruction and constant
# fetches, write-backs of earlier work), and times and hit rates vary run to run.
# DRAM reads are deterministic for the 256 MiB copy (for the small kernels they are mostly noise). DRAM
# writes are not compared: they happen when L2 evicts dirty lines, so a GPA sample that ends with up to an
# L2's worth of the copy still dirty counts those bytes later, while ncu's kernel replay writes L2 back
# before its measurement ends (cuda_device_check's copy+writeback sample checks the write count instead).
DETERMINISTIC_FOR = {("copy", "dram__bytes_read.sum")}


def read_gpa(path):
    return {(r["kernel"], r["metric"]): float(r["value"]) for r in csv.DictReader(open(path))}


def read_ncu(path):
    lines = [line for line in open(path) if line.startswith('"')]
    seen = {}
    values = {}
    for row in csv.DictReader(lines):
        name = row["Kernel Name"].split("(")[0].split("::")[-1].replace("void ", "").strip()
        if name not in KERNELS:
            continue
        launch = row["ID"]
        order = seen.setdefault(name, [])
        if launch not in order:
            order.append(launch)
        index = order.index(launch)
        if index >= len(KERNELS[name]):
            continue
        value = row["Metric Value"].replace(",", "")
        try:
            values[(KERNELS[name][index], row["Metric Name"])] = float(value)
        except ValueError:
            pass
    return values


def main():
    gpa, ncu = read_gpa(sys.argv[1]), read_ncu(sys.argv[2])
    failures = 0
    compared = 0
    print(f"{'kernel':9} {'metric':58} {'OpenGPA':>18} {'ncu':>18} {'diff':>9}  verdict")
    compared_samples = {sample for samples in KERNELS.values() for sample in samples}
    for (kernel, metric), ours in sorted(gpa.items()):
        if kernel not in compared_samples:
            continue  # a sample of several kernels: ncu reports kernels one by one
        theirs = ncu.get((kernel, metric))
        deterministic = metric in DETERMINISTIC or (kernel, metric) in DETERMINISTIC_FOR
        if theirs is None:
            print(f"{kernel:9} {metric:58} {ours:18.6g} {'-':>18} {'':>9}  ncu has no value")
            failures += deterministic
            continue
        scale = max(abs(ours), abs(theirs))
        diff = abs(ours - theirs) / scale if scale else 0.0
        verdict = "informational"
        if deterministic:
            compared += 1
            verdict = "PASS (<=1%)" if diff <= 0.01 else "FAIL (>1%)"
            failures += diff > 0.01
        print(f"{kernel:9} {metric:58} {ours:18.6g} {theirs:18.6g} {100 * diff:8.3f}%  {verdict}")
    print(f"{compared} deterministic counters compared, {failures} outside 1%")
    return failures


if __name__ == "__main__":
    sys.exit(main())
