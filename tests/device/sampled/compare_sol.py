"""Issue 36: the sampled mode's Speed-of-Light columns against the exact mode, launch by launch (same process order
and launch index). SAMPLED.csv has SOL_SM ... GPUBottleneck (`--mode sampled --metrics SpeedOfLight`); TRIAGE.csv
has the four PM unit throughputs the sampled formulas read, measured per launch by the exact mode: from them this
script computes what the sampled columns should read (catalogs/pm_sampled_sol.json's formulas, here in Python: a
second spelling of the rule, so a wrong formula shows). NCU.csv, optional, is the exact mode's own SOL_* (ncu's
throughput metrics), shown beside for what the triage metrics are not. Prints, by kernel length (the sampled row's
duration), the median and p90 difference in points and the share within 2 pt, and how often the bottleneck agrees.
  compare_sol.py SAMPLED.csv TRIAGE.csv [NCU.csv]"""
import csv
import math
import sys

BUCKETS = [(0, 50e3, "< 50 µs"), (50e3, 200e3, "50-200 µs"), (200e3, 1e6, "200 µs-1 ms"), (1e6, 1e12, ">= 1 ms")]
SM = "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed"
L1 = "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed"
L2 = "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed"
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
LATENCY_BOUND = 60.0


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def number(row, name):
    try:
        return float(row.get(name) or "nan")
    except ValueError:
        return math.nan


def expected_from_triage(row):
    units = [number(row, m) for m in (SM, L1, L2, DRAM)]
    if any(math.isnan(u) for u in units):
        return None
    capped = [min(u, 100.0) for u in units]
    busiest = max(range(4), key=lambda i: (units[i], -i))
    return {"SOL_SM": capped[0], "SOL_L1TEX": capped[1], "SOL_L2": capped[2], "SOL_DRAM": capped[3],
            "SOL_Memory": min(max(units[1:]), 100.0), "GPUBusiestUnit": busiest,
            "GPUBottleneck": busiest if units[busiest] >= LATENCY_BOUND else 4,
            "GPUBottleneckSOL": capped[busiest]}


def matched(sampled, reference):
    pids_s = list(dict.fromkeys(r["pid"] for r in sampled))
    pids_r = list(dict.fromkeys(r["pid"] for r in reference))
    rename = dict(zip(pids_r, pids_s))  # the n-th process of one run is the n-th of the other
    by_key = {(rename.get(r["pid"]), int(r["index"])): r for r in reference}
    for r in sampled:
        other = by_key.get((r["pid"], int(r["index"])))
        if other is not None and other["kernel"] == r["kernel"]:
            yield r, other


def table(title, pairs, columns, reference_of):
    print(f"\n{title}")
    print("| kernel length | launches | " + " | ".join(f"{c} median / p90 / within 2 pt" for c in columns) +
          " | GPUBottleneck agrees |")
    print("|---|---|" + "---|" * len(columns) + "---|")
    for low, high, name in BUCKETS:
        chosen = [(s, r) for s, r in pairs if low <= float(s["end_ns"]) - float(s["start_ns"]) < high]
        if not chosen:
            continue
        cells = []
        for column in columns:
            errors = sorted(abs(number(s, column) - reference_of(r)[column]) if reference_of(r) else math.inf
                            for s, r in chosen)
            errors = [e if not math.isnan(e) else math.inf for e in errors]
            n = len(errors)
            cells.append(f"{errors[n // 2]:.2f} / {errors[int(n * 0.9)]:.2f} / "
                         f"{sum(e <= 2 for e in errors) / n * 100:.0f} %")
        agree = sum(1 for s, r in chosen if reference_of(r) and number(s, "GPUBottleneck") ==
                    reference_of(r)["GPUBottleneck"])
        print(f"| {name} | {len(chosen)} | " + " | ".join(cells) + f" | {agree / len(chosen) * 100:.0f} % |")


def main():
    sampled = rows(sys.argv[1])
    triage = rows(sys.argv[2])
    pairs = list(matched(sampled, triage))
    print(f"{len(sampled)} sampled rows, {len(triage)} exact rows, {len(pairs)} matched")
    columns = ["SOL_SM", "SOL_L1TEX", "SOL_L2", "SOL_DRAM", "SOL_Memory", "GPUBottleneckSOL"]
    table("Sampled SOL against the same unit throughputs measured per launch (exact mode, kernel replay)", pairs,
          columns, expected_from_triage)
    if len(sys.argv) > 3:
        ncu = rows(sys.argv[3])
        ncu_pairs = list(matched(sampled, ncu))
        ncu_columns = ["SOL_SM", "SOL_L1TEX", "SOL_L2", "SOL_DRAM", "SOL_Memory"]
        table("Sampled SOL against the exact mode's own SOL (ncu's throughput metrics; information)", ncu_pairs,
              ncu_columns, lambda r: {c: number(r, c) for c in ncu_columns + ["GPUBottleneck"]})


if __name__ == "__main__":
    main()
