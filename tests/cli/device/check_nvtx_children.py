#!/usr/bin/env python3
"""Checks the profiles run_nvtx_children.sh made of nvtx_children.cu (on the GPU machine):
which launches each --nvtx-include sampled, the ranges each row carries, that the child's rows carry
its own pid and launch indexes, and that every instruction count equals ncu's for the same kernel."""
import csv
import sys
from pathlib import Path

work = Path(sys.argv[1])
failures = 0


def check(ok, text):
    global failures
    print(("PASS " if ok else "FAIL ") + text)
    failures += 0 if ok else 1


def rows(tag):
    path = work / f"{tag}.csv"
    if not path.exists():
        check(False, f"{tag}: no profile written")
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def kernel(name):
    return name.split("(")[0].split()[-1]


def ncu_counts(name):
    """(pid, kernel) of every ncu launch in order, and its smsp__inst_executed.sum."""
    text = (work / name).read_text().splitlines()
    start = next((i for i, line in enumerate(text) if line.startswith('"ID"')), None)
    if start is None:
        return []
    result = []
    for row in csv.DictReader(text[start:]):
        if row.get("Metric Name") == "smsp__inst_executed.sum":
            result.append((int(row["Process ID"]), kernel(row["Kernel Name"]),
                           int(float(row["Metric Value"].replace(",", "")))))
    return result


profiles = {tag: rows(tag) for tag in ("outer", "mylib", "all")}
for tag, table in profiles.items():
    print(f"-- {tag}: pid,index,kernel,nvtx,smsp__inst_executed.sum")
    for row in table:
        print(f"   {row['pid']},{row['index']},{kernel(row['kernel'])},{row['nvtx']},{row['smsp__inst_executed.sum']}")


def shape(table):
    """[(process order, index, kernel, nvtx)], processes numbered in the order they appear."""
    order = {}
    for row in table:
        order.setdefault(row["pid"], len(order))
    return [(order[r["pid"]], int(r["index"]), kernel(r["kernel"]), r["nvtx"]) for r in table]


check(shape(profiles["outer"]) == [(0, 0, "add_one", "outer"), (0, 3, "scale", "outer > inner"),
                                   (1, 1, "add_one", "outer")],
      "--nvtx-include outer: parent launches 0 (range pushed before cuInit) and 3 (nested), child launch 1")
check(shape(profiles["mylib"]) == [(0, 2, "scale", "mylib@work")], "--nvtx-include mylib@work: parent launch 2 only")
check(shape(profiles["all"]) == [(0, 0, "add_one", "outer"), (0, 1, "add_one", ""), (0, 2, "scale", "mylib@work"),
                                 (0, 3, "scale", "outer > inner"), (0, 4, "add_one", "inner"), (0, 5, "add_one", ""),
                                 (1, 0, "add_one", ""), (1, 1, "add_one", "outer")],
      "no filter: 6 parent launches and the child's 2, each with its open ranges")
for tag, table in profiles.items():
    pids = {row["pid"] for row in table}
    check(len(pids) == (1 if tag == "mylib" else 2) and "0" not in pids,
          f"{tag}: rows carry real, distinct pids {sorted(pids)}")

ncu = ncu_counts("ncu_all.csv")
ncu_by_kernel = {}
for _, name, count in ncu:
    ncu_by_kernel.setdefault(name, set()).add(count)
print(f"-- ncu (all): {len(ncu)} launches, smsp__inst_executed.sum by kernel {ncu_by_kernel}")
check(len(ncu) == 8 and all(len(v) == 1 for v in ncu_by_kernel.values()), "ncu: 8 launches, one count per kernel")
for tag, table in profiles.items():
    same = all({int(float(r["smsp__inst_executed.sum"]))} == ncu_by_kernel.get(kernel(r["kernel"])) for r in table)
    check(bool(table) and same, f"{tag}: every instruction count equals ncu's for its kernel")
ncu_outer = ncu_counts("ncu_outer.csv")
print(f"-- ncu --nvtx-include outer/: {[(name, count) for _, name, count in ncu_outer]}")
check([name for _, name, _ in ncu_outer] == [kernel(r["kernel"]) for r in profiles["outer"]],
      "ncu --nvtx-include outer/ profiles the same kernels in the same order as opengpa --nvtx-include outer")
print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
