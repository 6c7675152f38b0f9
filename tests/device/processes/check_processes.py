"""The checks of run.sh (issue 29 on an NVIDIA GPU); see run.sh for what each shows.

Usage: check_processes.py STAGE_DIR OUT_DIR
"""
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

stage, out = sys.argv[1:3]
OPENGPA = os.path.join(stage, "bin", "opengpa")
TESTS = os.path.join(stage, "tests")
SPAWN = os.path.join(TESTS, "spawn_check")
N, M = 50, 22
work = tempfile.mkdtemp(prefix="opengpa-processes-")
log = open(os.path.join(out, "processes.log"), "w")
summary = {}
failures = []


def say(text):
    print(text, flush=True)
    log.write(text + "\n")
    log.flush()


def verdict(name, ok, figures):
    say(f"{'PASS' if ok else 'FAIL'} {name}: {figures}")
    summary[name] = {"ok": ok, "figures": figures}
    if not ok:
        failures.append(name)


EXACT = ("--counters", "gpu__time_duration.sum")
# The sampled mode (issue 36) with one DRAM metric, which every host keeps up with at its default interval.
SAMPLED = ("--mode", "sampled", "--metrics", "dram__bytes_read.sum")


def profile(name, program, *options, env=None, mode=EXACT):
    prefix = os.path.join(work, name)
    command = [OPENGPA, "profile", "--api", "cuda", *mode, "-f", "-o", prefix, *options, "--", *program]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=dict(os.environ, **(env or {})))
    say(f"== {name}: exit {result.returncode}\n$ {' '.join(command)}\n{result.stdout[-3000:]}{result.stderr[-6000:]}")
    rows = []
    if os.path.exists(prefix + ".csv"):
        with open(prefix + ".csv") as f:
            rows = list(csv.DictReader(f))
    return result, rows, prefix


def launches(rows):
    """{pid: {kernel: count}} (kernel names without their parameters) and the (gpu_uuid, pci_bus_id) the rows name."""
    counts = {}
    for row in rows:
        kernel = row["kernel"].split("(")[0]
        counts.setdefault(row["pid"], {}).setdefault(kernel, 0)
        counts[row["pid"]][kernel] += 1
    return counts, {(row["gpu_uuid"], row["pci_bus_id"]) for row in rows}


def check_both_profiled(name, program, child_launches=M, env=None, mode=EXACT):
    """Every launch of the parent (as many as it printed) and of the child profiled, under two pids."""
    result, rows, prefix = profile(name, program, env=env, mode=mode)
    counts, gpus = launches(rows)
    parent = [pid for pid, kernels in counts.items() if "parent_kernel" in kernels]
    child = [pid for pid, kernels in counts.items() if "child_kernel" in kernels]
    printed = re.search(r"parent (\d+): (\d+) launches", result.stdout)
    parent_launches = int(printed.group(2)) if printed else 2 * N
    ok = (result.returncode == 0 and len(parent) == 1 and len(child) == 1 and parent != child and
          counts[parent[0]] == {"parent_kernel": parent_launches} and
          counts[child[0]] == {"child_kernel": child_launches} and
          len(gpus) == 1 and all(uuid.startswith("GPU-") and bus for uuid, bus in gpus))
    turns = [line.split("opengpa profile: ")[-1] for line in result.stderr.splitlines() if "GPU turns:" in line]
    wall = json.load(open(prefix + ".json"))["wall_time_s"] if os.path.exists(prefix + ".json") else None
    verdict(name, ok, f"exit {result.returncode}; launches by pid {counts} (expected parent {parent_launches}, "
            f"child {child_launches}); GPUs named {sorted(gpus)}; wall {wall} s; {turns}")
    return result, rows


def check_sampled(name, program, child_launches=M, early=True):
    """The sampled mode with several processes: every launch of both is a row with its share of the samples (none
    in lost time), and the samples were attributed while the program exited (`early`: the program's own process
    ended last, so PM sampling could stop at its end record) or after it (a child outlived it), never missing a
    process that began after PM sampling stopped."""
    result, rows = check_both_profiled(name + "_launches", program, child_launches, mode=SAMPLED)
    covered = [float(row["pm__coverage"]) for row in rows if row.get("pm__coverage")]
    phases = [line for line in result.stderr.splitlines() if "own time around the program" in line]
    when = "while it exited" if early else "after it"
    late = [line for line in result.stderr.splitlines() if "began after the program's processes" in line]
    ok = (result.returncode == 0 and len(covered) == len(rows) > 0 and min(covered) >= 0.999 and len(phases) == 1 and
          phases[0].endswith(when) and not late)
    verdict(name + "_attributed", ok, f"{len(rows)} rows, coverage {min(covered, default=None)}-"
            f"{max(covered, default=None)} (expected 1); expected attribution {when!r}: {phases}; late: {late}")


def main():
    for method in ("posix_spawn", "vfork", "fork"):
        check_both_profiled(method, [SPAWN, "parent", str(N), str(M), method])
    # Both processes launching at once (the child 2000 launches, the parent rounds of 10 until it ends): turns
    # handed back and forth; with the hand-over that destroys the profiler too, to compare their cost.
    for handover in ("release", "destroy"):
        check_both_profiled("concurrent_" + handover, [SPAWN, "parent", str(N), "2000", "concurrent"],
                            child_launches=2000, env={"OPENGPA_PROFILE_HANDOVER": handover})
    python_parent = [sys.executable, os.path.join(TESTS, "parent.py"), os.path.join(TESTS, "libspawn_kernels.so"),
                     SPAWN, str(N), str(M)]
    check_both_profiled("python_subprocess_run", python_parent)
    # A child that outlives the program's own process: opengpa waits for it and profiles its launches.
    check_both_profiled("orphan", [SPAWN, "parent", str(N), str(M), "orphan"])

    # The sampled mode (issue 36) with the same programs.
    check_sampled("sampled_posix_spawn", [SPAWN, "parent", str(N), str(M), "posix_spawn"])
    check_sampled("sampled_concurrent", [SPAWN, "parent", str(N), "2000", "concurrent"], child_launches=2000)
    check_sampled("sampled_python_subprocess_run", python_parent)
    check_sampled("sampled_orphan", [SPAWN, "parent", str(N), str(M), "orphan"], early=False)

    # Without turns: the failure issue 29 measured, now loud.
    result, rows, _ = profile("without_turns", [SPAWN, "parent", str(N), str(M), "posix_spawn"],
                              env={"OPENGPA_PROFILE_TURNS": "off"})
    counts, _ = launches(rows)
    named = [line for line in result.stderr.splitlines() if "was not profiled" in line]
    child_rows = sum(k.get("child_kernel", 0) for k in counts.values())
    verdict("without_turns_the_child_is_refused_and_named", result.returncode == 3 and named != [],
            f"exit {result.returncode}; child launches profiled {child_rows} of {M}; {named}")

    # A child its GPU cannot measure (counters the chip does not have, set for the child alone).
    bad = [SPAWN, "parent", str(N), str(M), "posix_spawn", "OPENGPA_PROFILE_COUNTERS=no_such__metric.sum"]
    result, rows, _ = profile("unprofilable_child", bad)
    named = [line for line in result.stderr.splitlines() if "was not profiled" in line]
    counts, _ = launches(rows)
    verdict("an_unprofilable_child_fails_the_run_naming_it", result.returncode == 3 and len(named) == 1,
            f"exit {result.returncode}; {named}; launches by pid {counts}")
    result, rows, _ = profile("unprofilable_child_allowed", bad, "--allow-unprofiled-processes")
    verdict("allow_unprofiled_processes_exits_0", result.returncode == 0 and "warning: process" in result.stderr,
            f"exit {result.returncode}")

    # One report per process.
    result, _, _ = profile("per_process_%p", [SPAWN, "parent", str(N), str(M), "posix_spawn"])
    reports = sorted(n for n in os.listdir(work) if n.startswith("per_process_") and n.endswith(".csv"))
    per_report = {}
    for name in reports:
        with open(os.path.join(work, name)) as f:
            per_report[name] = launches(list(csv.DictReader(f)))[0]
    ok = (result.returncode == 0 and len(reports) == 2 and
          all(len(counts) == 1 and name == f"per_process_{list(counts)[0]}.csv" for name, counts in per_report.items()))
    verdict("one_report_per_process", ok, f"{per_report}")

    # Cost of turns for a process alone: wall time under the profiler, with and without (COST_RUNS=0: none).
    times = {"turns": [], "off": []}
    for _ in range(int(os.environ.get("COST_RUNS", "3"))):
        for mode in ("turns", "off"):
            env = {"OPENGPA_PROFILE_TURNS": "off"} if mode == "off" else {}
            result, rows, prefix = profile(f"cost_{mode}", [SPAWN, "child", "4000"], env=env)
            with open(prefix + ".json") as f:
                times[mode].append(json.load(f)["wall_time_s"])
            if len(rows) != 4000:
                failures.append(f"cost_{mode}")
    if times["turns"]:
        verdict("cost_of_turns_alone", True, f"4000 launches, wall time (s) with turns {times['turns']}, without "
                f"{times['off']}; medians {statistics.median(times['turns']):.3f} vs "
                f"{statistics.median(times['off']):.3f}")

    with open(os.path.join(out, "processes_summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    subprocess.run(["tar", "czf", os.path.join(out, "processes_outputs.tgz"), "-C", work, "."])
    say(f"{len(failures)} failure(s): {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
