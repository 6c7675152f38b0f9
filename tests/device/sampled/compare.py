"""Compares a sampled profile's per-launch DRAM read bytes with the truth (sampled_truth's own lines) and, when
given, with an exact profile of the same launches; prints Markdown tables of the error by kernel length.
  compare.py TRUTH.txt SAMPLED.csv [EXACT.csv]"""
import csv
import statistics
import sys

BUCKETS = [(0, 10e3, "< 10 µs"), (10e3, 50e3, "10-50 µs"), (50e3, 200e3, "50-200 µs"),
           (200e3, 1e6, "200 µs-1 ms"), (1e6, 1e12, ">= 1 ms")]


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def main():
    truth = {}
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) == 3 and parts[0] == "launch":
            truth[int(parts[1])] = float(parts[2])
    sampled = rows(sys.argv[2])
    exact = dict(enumerate(r for r in rows(sys.argv[3]) if "Copy" in r["kernel"])) if len(sys.argv) > 3 else {}
    copies = [r for r in sampled if "Copy" in r["kernel"]]
    print(f"{len(copies)} copy launches of {len(truth)} in the truth; {len(sampled)} rows in all")
    errors = {b[2]: [] for b in BUCKETS}
    exact_errors = {b[2]: [] for b in BUCKETS}
    flagged = {b[2]: [0, 0, 0] for b in BUCKETS}  # short, overlapped, coverage < 0.99
    for i, row in enumerate(copies):
        if i not in truth:
            continue
        duration = float(row["end_ns"]) - float(row["start_ns"])
        name = next(b[2] for b in BUCKETS if b[0] <= duration < b[1])
        value = float(row["dram__bytes_read.sum"] or "nan")
        # A launch no sample covered (records lost) has no value: counted as an unbounded error.
        errors[name].append(abs(value / truth[i] - 1) * 100 if value == value else float("inf"))
        flagged[name][0] += row.get("pm__short") == "1"
        flagged[name][1] += row.get("pm__overlapped") == "1"
        flagged[name][2] += float(row.get("pm__coverage") or 0) < 0.99
        if i in exact:
            if value == value:
                exact_errors[name].append(abs(value / float(exact[i]["dram__bytes_read.sum"]) - 1) * 100)
    print("| kernel length | launches | median error vs truth % | p90 % | within 2 % | within 5 % | vs exact median % |"
          " short / overlapped / coverage<0.99 |")
    print("|---|---|---|---|---|---|---|---|")
    for _, _, name in BUCKETS:
        e = sorted(errors[name])
        if not e:
            continue
        within2 = sum(x <= 2 for x in e) / len(e) * 100
        within5 = sum(x <= 5 for x in e) / len(e) * 100
        ex = statistics.median(exact_errors[name]) if exact_errors[name] else float("nan")
        f = flagged[name]
        print(f"| {name} | {len(e)} | {statistics.median(e):.2f} | {e[int(len(e) * 0.9)]:.2f} | {within2:.0f} % |"
              f" {within5:.0f} % | {ex:.2f} | {f[0]} / {f[1]} / {f[2]} |")
    total = sum(v for v in (float(r["dram__bytes_read.sum"] or 0) for r in copies) if v == v)
    print(f"total DRAM read attributed to copies / truth: {total / sum(truth.values()):.4f}")


if __name__ == "__main__":
    main()
