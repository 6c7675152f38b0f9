#!/usr/bin/env python3
"""Prints libGPUPerfAPICUDA.so's raw CUPTI metrics next to ncu's for the same kernels, and fails when a
deterministic counter differs by more than 1%.

Usage: compare_ncu.py gpa_raw.csv ncu.csv [gpa_derived.csv cuda.json]
gpa_raw.csv: kernel,metric,value (cuda_device_check); ncu.csv: `ncu --csv --print-units base` output.
With gpa_derived.csv (kernel,counter,value) and the catalog, each derived counter's formula is also evaluated
over ncu's metrics and compared with libGPUPerfAPICUDA.so's value: instruction-count counters must agree
within 1%, the cycle-based ones are printed.
"""
import csv
import json
import re
import sys

# ncu kernel name -> our sample names, in launch order.
KERNELS = {"copy_kernel": ["copy"], "ffma_kernel": ["ffma"], "bank_conflict_kernel": ["bank8", "bank1"],
           "l2_reread_kernel": ["l2reread"], "diverge_kernel": ["diverge"], "l1_reuse_kernel": ["l1reuse"],
           "l1_twice_kernel": ["l1twice"], "flat_kernel": ["flat"]}
# Counts that do not depend on timing or cache state, for every kernel.
DETERMINISTIC = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__inst_executed.sum",
                 "smsp__warps_launched.sum", "smsp__thread_inst_executed.sum", "smsp__inst_executed_op_shared_ld.sum",
                 "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                 "smsp__inst_executed_pipe_alu.sum", "smsp__inst_executed_pipe_fma.sum",
                 "smsp__inst_executed_pipe_fp64.sum",
                 "smsp__inst_executed_pipe_xu.sum", "smsp__inst_executed_pipe_uniform.sum",
                 "smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_st.sum",
                 "smsp__thread_inst_executed_pipe_alu_pred_on.sum", "smsp__thread_inst_executed_pipe_fma_pred_on.sum",
                 "smsp__thread_inst_executed_pipe_fp64_pred_on.sum", "smsp__thread_inst_executed_pipe_xu_pred_on.sum",
                 "smsp__inst_executed_op_shared_st.sum", "smsp__inst_executed_op_shared_atom.sum",
                 # extra wavefronts of conflicting shared accesses: a property of the access pattern
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                 # generic (FLAT) instructions, by opcode and by the space they resolved to
                 "smsp__inst_executed_op_generic_ld.sum", "smsp__inst_executed_op_generic_st.sum",
                 "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
                 "smsp__sass_inst_executed_op_shared_atom.sum"}
# Derived counters that are ratios of instruction counts (deterministic); the others divide by cycles.
DETERMINISTIC_DERIVED = {"Wavefronts", "VALUInsts", "SALUInsts", "VFetchInsts", "VWriteInsts", "VALUUtilization",
                         "LDSInsts", "FlatVMemInsts", "FlatLDSInsts"}
# Not compared: L2 requests/sectors also count traffic that is not the kernel's (instruction and constant
# fetches, write-backs of earlier work), and times and hit rates vary run to run.
# DRAM reads are deterministic for the 256 MiB copy (for the small kernels they are mostly noise). DRAM
# writes are not compared: they happen when L2 evicts dirty lines, so a GPA sample that ends with up to an
# L2's worth of the copy still dirty counts those bytes later, while ncu's kernel replay writes L2 back
# before its measurement ends (cuda_device_check's copy+writeback sample checks the write count instead).
DETERMINISTIC_FOR = {("copy", "dram__bytes_read.sum")}
# ...and the exceptions the other way: flat_kernel's generic (FLAT) accesses to shared memory, not designed to
# conflict, read 9 and 7 bank conflicts in two OpenGPA runs and 0 in ncu's on the H100 (of 68,640 such warp
# instructions; the cause is not known), while the LDS kernels' conflict counts agree exactly in every run.
NOT_DETERMINISTIC_FOR = {("flat", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
                         ("flat", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")}


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


class Value(float):
    """A float whose division by zero is 0, as the catalog's formula language."""

    def _wrap(op):
        def method(self, other):
            return Value(op(float(self), float(other)))
        return method

    __add__ = _wrap(lambda a, b: a + b)
    __radd__ = _wrap(lambda a, b: b + a)
    __sub__ = _wrap(lambda a, b: a - b)
    __rsub__ = _wrap(lambda a, b: b - a)
    __mul__ = _wrap(lambda a, b: a * b)
    __rmul__ = _wrap(lambda a, b: b * a)
    __truediv__ = _wrap(lambda a, b: a / b if b != 0 else 0.0)
    __rtruediv__ = _wrap(lambda a, b: b / a if a != 0 else 0.0)

    def __neg__(self):
        return Value(-float(self))


def evaluate(formula, values):
    """The catalog formula over `values` (metric -> number); None when a metric is missing."""
    names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", formula)) - {"min", "max"}
    if any(name not in values for name in names):
        return None
    env = {f"m{i}": Value(values[name]) for i, name in enumerate(sorted(names))}
    expr = formula
    for i, name in enumerate(sorted(names, key=len, reverse=True)):
        expr = re.sub(r"(?<![A-Za-z0-9_.])" + re.escape(name) + r"(?![A-Za-z0-9_.])",
                      f"m{sorted(names).index(name)}", expr)
    return float(eval(expr, {"__builtins__": {}, "min": min, "max": max}, env))


def compare_derived(derived_path, catalog_path, ncu):
    formulas = {}
    for counter in json.load(open(catalog_path))["counters"]:
        formulas.setdefault(counter["name"], []).append(counter["formula"])
    ours = {(r["kernel"], r["counter"]): float(r["value"]) for r in csv.DictReader(open(derived_path))}
    by_kernel = {}
    for (kernel, metric), value in ncu.items():
        by_kernel.setdefault(kernel, {})[metric] = value
    failures = compared = 0
    print(f"\n{'kernel':9} {'derived counter':20} {'OpenGPA':>16} {'formula over ncu':>18} {'diff':>9}  verdict")
    for (kernel, counter), value in sorted(ours.items()):
        if kernel not in by_kernel:
            continue
        candidates = (evaluate(f, by_kernel[kernel]) for f in formulas.get(counter, []))
        theirs = next((v for v in candidates if v is not None), None)
        if theirs is None:
            print(f"{kernel:9} {counter:20} {value:16.7g} {'-':>18} {'':>9}  ncu lacks a metric")
            failures += counter in DETERMINISTIC_DERIVED
            continue
        scale = max(abs(value), abs(theirs))
        diff = abs(value - theirs) / scale if scale else 0.0
        verdict = "informational"
        if counter in DETERMINISTIC_DERIVED:
            compared += 1
            verdict = "PASS (<=1%)" if diff <= 0.01 else "FAIL (>1%)"
            failures += diff > 0.01
        print(f"{kernel:9} {counter:20} {value:16.7g} {theirs:18.7g} {100 * diff:8.3f}%  {verdict}")
    print(f"{compared} deterministic derived counters compared, {failures} outside 1%")
    return failures


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
        deterministic = ((metric in DETERMINISTIC or (kernel, metric) in DETERMINISTIC_FOR)
                         and (kernel, metric) not in NOT_DETERMINISTIC_FOR)
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
    if len(sys.argv) > 4:
        failures += compare_derived(sys.argv[3], sys.argv[4], ncu)
    return failures


if __name__ == "__main__":
    sys.exit(main())
