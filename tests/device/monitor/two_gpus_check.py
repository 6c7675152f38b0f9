#!/usr/bin/env python3
"""Judges two_gpus.sh's run: the monitor's CSV against the copy loops' own byte counts and time windows, and the
hand-over of GPU 0 to `opengpa profile`. Prints PASS/FAIL lines with their figures, writes summary.json to --out,
and exits with the number of failures.

Checks, per GPU (by UUID):
  A. with both GPUs copying for 10 s: DRAM bytes read and written within 1 % of the loop's own count, counted from
     the PM samples that overlap the loop's window; under 0.5 % of them in samples outside the window (+-5 ms);
     no lost interval (a hole between consecutive 1 ms samples) while the loops ran
  B. while `opengpa profile` ran on GPU 0: the profile exited 0 with every launch; GPM values of GPU 0 kept coming
     (one per 200 ms tick, less two); the monitor said it handed GPU 0 over; GPU 1's PM samples had no hole and its
     bytes stayed within 1 %
  C. after the profile: the monitor said it took GPU 0 back, and GPU 0's bytes of a 3 s loop are within 1 % again
"""
import argparse
import collections
import csv
import json
import os
import sys

SLACK_NS = 5_000_000
PM_READ, PM_WRITE = "dram__bytes_read.sum", "dram__bytes_write.sum"
GPM_PROBE = "gpm_sm_activity_percent"


def load_records(path):
    """{uuid: {counter: [(start_ns, end_ns, value), ...]}} sorted by end."""
    series = collections.defaultdict(lambda: collections.defaultdict(list))
    with open(path) as f:
        for row in csv.DictReader(f):
            end = int(row["timestamp_ns"])
            series[row["uuid"]][row["counter"]].append((end - int(row["duration_ns"]), end, float(row["value"])))
    for counters in series.values():
        for records in counters.values():
            records.sort(key=lambda r: r[1])
    return series


def bytes_in(records, begin, end):
    """(inside, outside): bytes of samples overlapping [begin, end] (with slack), and of the others."""
    inside = sum(v for s, e, v in records if s < end + SLACK_NS and e > begin - SLACK_NS)
    return inside, sum(v for _, _, v in records) - inside


def holes(records, begin, end, interval_ns=1_000_000):
    """Holes longer than half an interval between consecutive samples within [begin, end]."""
    found = []
    inside = [(s, e) for s, e, _ in records if e >= begin and s <= end]
    for (_, previous_end), (start, _) in zip(inside, inside[1:]):
        if start - previous_end > interval_ns // 2:
            found.append((previous_end, start - previous_end))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--monitor-status", type=int, required=True)
    parser.add_argument("--monitor-stderr", required=True)
    parser.add_argument("--profile-status", type=int, required=True)
    parser.add_argument("--profile-csv", required=True)
    parser.add_argument("--profile-window", type=int, nargs=2, required=True)
    parser.add_argument("--profile-launches", type=int, default=30)
    args = parser.parse_args()

    verdicts = {}

    def check(name, ok, figures):
        print(f"{'PASS' if ok else 'FAIL'} {name}: {figures}", flush=True)
        verdicts[name] = {"ok": bool(ok), "figures": figures}

    def loop(name):
        path = os.path.join(args.work, name + ".json")
        return json.load(open(path)) if os.path.exists(path) else None

    series = load_records(args.csv)
    stderr = open(args.monitor_stderr).read()
    check("monitor ran and stopped cleanly", args.monitor_status == 0,
          f"exit {args.monitor_status}; {sum(len(r) for c in series.values() for r in c.values())} records")

    def dram(phase, run, extra_hole_check=True):
        if run is None:
            check(f"{phase} GPU loop ran", False, "no result from copy_loop")
            return
        uuid = run["uuid"]
        gpu = f"{phase} GPU {run['gpu']} ({uuid[:12]})"
        for counter, truth in ((PM_READ, run["bytes_read"]), (PM_WRITE, run["bytes_written"])):
            records = series.get(uuid, {}).get(counter, [])
            inside, outside = bytes_in(records, run["begin_ns"], run["end_ns"])
            # Outside: only what lies beyond this loop's window but inside the phase (other phases move bytes too).
            near = [(s, e, v) for s, e, v in records
                    if run["begin_ns"] - 1_500_000_000 < e < run["end_ns"] + 1_500_000_000]
            _, stray = bytes_in(near, run["begin_ns"], run["end_ns"])
            ratio = inside / truth if truth else float("nan")
            check(f"{gpu}: {counter} within 1 % of the loop's count", abs(ratio - 1) < 0.01,
                  f"{inside:.6g} vs {truth} bytes (ratio {ratio:.5f}), {run['launches']} launches in "
                  f"{(run['end_ns'] - run['begin_ns']) / 1e9:.2f} s")
            check(f"{gpu}: {counter} inside the loop's window", truth and stray < 0.005 * truth,
                  f"{stray:.4g} bytes ({100 * stray / truth:.3f} %) in samples within 1.5 s before / 1.5 s after the "
                  f"window but outside it (+-5 ms)")
        if extra_hole_check:
            records = series.get(uuid, {}).get(PM_READ, [])
            found = holes(records, run["begin_ns"], run["end_ns"])
            samples = sum(1 for _, e, _ in records if run["begin_ns"] <= e <= run["end_ns"])
            check(f"{gpu}: no lost interval while it copied", not found,
                  f"{len(found)} holes" + (f", e.g. {found[:3]}" if found else "") +
                  f"; {samples} samples in the window")

    dram("A", loop("a0"))
    dram("A", loop("a1"))
    check("A: no buffer-wrap or gap message from PM sampling", "lost" not in stderr and "overflowed" not in stderr,
          [line for line in stderr.splitlines() if "lost" in line or "overflowed" in line][:3] or "none")

    begin, end = args.profile_window
    rows = []
    if os.path.exists(args.profile_csv):
        rows = list(csv.DictReader(open(args.profile_csv)))
    read = [float(r.get(PM_READ) or 0) for r in rows]
    check("B: opengpa profile on GPU 0 succeeded while the monitor ran", args.profile_status == 0 and
          len(rows) == args.profile_launches,
          f"exit {args.profile_status}, {len(rows)} rows of {args.profile_launches}; dram__bytes_read.sum per launch "
          f"{min(read, default=0):.4g}..{max(read, default=0):.4g} (64 MiB = {64 << 20})")
    b1 = loop("b1")
    gpu0 = loop("a0")["uuid"] if loop("a0") else None
    if gpu0:
        gpm = [e for s, e, _ in series.get(gpu0, {}).get(GPM_PROBE, []) if begin <= e <= end]
        expected = int((end - begin) / 200e6) - 2
        check("B: GPM values of GPU 0 kept coming during the profile", len(gpm) >= max(1, expected),
              f"{len(gpm)} {GPM_PROBE} samples in the profile's {(end - begin) / 1e9:.2f} s (at least {expected})")
        pm0 = [e for s, e, _ in series.get(gpu0, {}).get(PM_READ, []) if begin + 1_000_000_000 <= e <= end]
        check("B: GPU 0's PM sampling was off while it was profiled", not pm0 or args.profile_status != 0,
              f"{len(pm0)} PM samples of GPU 0 from 1 s after the profile started to its end")
    check("B: the monitor said it handed GPU 0 over", "GPU 0: PM sampling handed over to a profiler" in stderr,
          [line for line in stderr.splitlines() if "handed over" in line][:2] or "no such line")
    dram("B", b1)
    check("C: the monitor said it took GPU 0 back", "GPU 0: PM sampling taken back" in stderr,
          [line for line in stderr.splitlines() if "taken back" in line][:2] or "no such line")
    dram("C", loop("c0"))
    gpm_errors = [line for line in stderr.splitlines() if "GPM source" in line and "failed" in line]
    check("GPM: no failed NVML call", not gpm_errors, gpm_errors[:3] or "none")

    failures = [name for name, v in verdicts.items() if not v["ok"]]
    json.dump({"verdicts": verdicts, "failures": failures}, open(os.path.join(args.out, "summary.json"), "w"),
              indent=1)
    print(f"{len(verdicts) - len(failures)} passed, {len(failures)} failed")
    return len(failures)


if __name__ == "__main__":
    sys.exit(main())
