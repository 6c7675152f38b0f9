"""Compares a sampled profile with an exact one of the same program, launch by launch (the same process order and
launch index), for every metric both have: amounts as relative error, percentages as points. Prints Markdown
tables by kernel length (the sampled row's own duration) and the share of launches marked short or overlapped.
  compare_profiles.py SAMPLED.csv EXACT.csv"""
import csv
import math
import sys

BUCKETS = [(0, 10e3, "< 10 µs"), (10e3, 50e3, "10-50 µs"), (50e3, 200e3, "50-200 µs"),
           (200e3, 1e6, "200 µs-1 ms"), (1e6, 1e12, ">= 1 ms")]


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def key(row):
    return row["pid"], int(row["index"])


def main():
    sampled, exact = rows(sys.argv[1]), rows(sys.argv[2])
    pids_s = list(dict.fromkeys(r["pid"] for r in sampled))
    pids_e = list(dict.fromkeys(r["pid"] for r in exact))
    rename = dict(zip(pids_e, pids_s))  # the n-th process of one run is the n-th of the other
    exact_by = {(rename.get(r["pid"]), int(r["index"])): r for r in exact}
    metrics = [m for m in sampled[0] if m in exact[0] and "__" in m and not m.startswith("pm__")]
    names_differ = sum(1 for r in sampled if key(r) in exact_by and exact_by[key(r)]["kernel"] != r["kernel"])
    print(f"{len(sampled)} sampled rows, {len(exact)} exact rows, {names_differ} matched rows with another kernel name")
    for metric in metrics:
        points = "pct" in metric
        print(f"\n{metric} ({'points' if points else 'relative error %'})")
        print("| kernel length | launches | median | p90 | within 2 | within 5 | short | overlapped |")
        print("|---|---|---|---|---|---|---|---|")
        for low, high, name in BUCKETS:
            errors, short, overlapped = [], 0, 0
            for r in sampled:
                e = exact_by.get(key(r))
                if e is None or e["kernel"] != r["kernel"]:
                    continue
                duration = float(r["end_ns"]) - float(r["start_ns"])
                if not low <= duration < high:
                    continue
                s_value, e_value = float(r[metric] or "nan"), float(e[metric] or "nan")
                if math.isnan(s_value) or math.isnan(e_value):
                    error = math.inf
                elif points:
                    error = abs(s_value - e_value)
                else:
                    error = abs(s_value / e_value - 1) * 100 if e_value else (0.0 if s_value == 0 else math.inf)
                errors.append(error)
                short += r.get("pm__short") == "1"
                overlapped += r.get("pm__overlapped") == "1"
            if not errors:
                continue
            errors.sort()
            n = len(errors)
            print(f"| {name} | {n} | {errors[n // 2]:.2f} | {errors[int(n * 0.9)]:.2f} |"
                  f" {sum(x <= 2 for x in errors) / n * 100:.0f} % | {sum(x <= 5 for x in errors) / n * 100:.0f} % |"
                  f" {short / n * 100:.0f} % | {overlapped / n * 100:.0f} % |")


if __name__ == "__main__":
    main()
