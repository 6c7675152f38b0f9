"""The checks of run.sh (tests/device/ddp): torchrun DDP on two GPUs under `opengpa profile` in every replay mode.

Usage: check_ddp.py STAGE_DIR OUT_DIR [RUN...]     (RUN: names of the runs below; none: all, in this order)
Each run has a timeout: one that does not end in time is a hang, killed with its whole process group.
"""
import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

ONE = ("gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,"
       "dram__bytes_read.sum,dram__bytes_write.sum")  # one pass on GH100
MULTI = ONE + ",smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_request_hit_rate.pct"  # two passes
DURATION = "gpu__time_duration.sum"
LEFT_OUT = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"  # not in the duration's single-pass group
NCCL = re.compile(r"^nccl(Dev)?Kernel")
TIMEOUT_S = 120
NCU_TIMEOUT_S = 90
RULE_OFF_TIMEOUT_S = 45  # enough for the run that ends (the rule on: about 20 s), short of a hang
BUDGET_S = float(os.environ.get("DDP_BUDGET_S", "400"))  # runs not started by then are skipped, named

# name: (replay, counters, extra options, training options, expected exit, environment)
RUNS = {
    "none_one": ("none", ONE, [], [], 0, {}),
    "kernel_multi": ("kernel", MULTI, [], [], 0, {}),
    "application_multi": ("application", MULTI, [], [], 0, {}),
    "slow_rank": ("auto", ONE, [], ["--slow-rank", "1", "--extra-microbatches", "3"], 0, {}),
    "nvtx_multi": ("auto", MULTI, ["--range-mode", "nvtx", "--nvtx-include", "step"], [], 0, {}),
    "kernel_one": ("kernel", ONE, [], [], 0, {}),
    "auto_multi": ("auto", MULTI, [], [], 0, {}),
    "ncu": None,
    "none_multi": ("none", MULTI, [], [], None, {}),  # refused: a multi-pass set under none, without a hang
    "auto_one": ("auto", ONE, [], [], 0, {}),
    "application_one": ("application", ONE, [], [], 0, {}),
    "rule_off": ("kernel", MULTI, [], [], None, {"OPENGPA_PROFILE_COLLECTIVES": "off"}),  # what the rule prevents
}

stage, out = sys.argv[1:3]
selected = sys.argv[3:] or list(RUNS)
OPENGPA = os.path.join(stage, "bin", "opengpa")
TRAIN = os.path.join(stage, "tests", "ddp_train.py")
work = tempfile.mkdtemp(prefix="opengpa-ddp-")
log = open(os.path.join(out, "ddp.log"), "w")
summary = {}
failures = []
started = time.monotonic()
kernel_lists = {}  # run name -> {rank: [base kernel names in launch order]}


def say(text):
    print(text, flush=True)
    log.write(text + "\n")
    log.flush()


def verdict(name, ok, figures):
    say(f"{'PASS' if ok else 'FAIL'} {name}: {figures}")
    summary[name] = {"ok": ok, "figures": figures}
    if not ok:
        failures.append(name)


def torchrun(port, training):
    return [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2", "--master_addr=127.0.0.1",
            f"--master_port={port}", TRAIN, *training]


def run_with_timeout(command, timeout, env=None):
    """(exit code or None when it timed out, seconds, stdout, stderr); a hung run is killed with its group."""
    begin = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env=dict(os.environ, **(env or {})))
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        code = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        code = None
    return code, time.monotonic() - begin, stdout, stderr


def base_name(kernel):
    """The kernel's name without return type and parameters, the same in ncu's and opengpa's spelling."""
    name = kernel.replace("(anonymous namespace)", "anon").strip()
    if name.startswith("void "):
        name = name[5:]
    return name.split("(")[0].strip()


def trained(stdout):
    """{rank: (pid, params_equal)} from the training's last lines; under application replay each run prints its
    own, and the first run's pid (the report's) is kept, with every run's parameters equal."""
    ranks = {}
    for match in re.finditer(r"rank (\d+) pid (\d+) gpu (\d+) microbatches (\d+) loss \S+ params_equal (\w+)", stdout):
        rank, pid, same = int(match.group(1)), int(match.group(2)), match.group(5) == "True"
        first = ranks.get(rank, (pid, True))
        ranks[rank] = (first[0], first[1] and same)
    return ranks


def reports(prefix_base):
    found = {}
    for rank in (0, 1):
        path = f"{prefix_base}.{rank}.json"
        if os.path.exists(path):
            found[rank] = json.load(open(path))
    return found


def profile_run(name, port):
    replay, counters, extra, training, expected, env = RUNS[name]
    base = os.path.join(work, name)
    command = [OPENGPA, "profile", "--api", "cuda", "-f", "-q", "-o", base + ".%r", "--replay-mode", replay,
               "--counters", counters, *extra, "--", *torchrun(port, training)]
    code, seconds, stdout, stderr = run_with_timeout(command, RULE_OFF_TIMEOUT_S if name == "rule_off" else TIMEOUT_S,
                                                     env)
    say(f"== {name}: exit {code} in {seconds:.1f} s\n$ {' '.join(command)}\n{stdout[-2500:]}{stderr[-5000:]}")
    return code, seconds, stdout, stderr, reports(base), base


def check_profile(name, port):
    replay, counters, extra, training, expected, env = RUNS[name]
    code, seconds, stdout, stderr, found, base = profile_run(name, port)
    if code is None:
        limit = RULE_OFF_TIMEOUT_S if name == "rule_off" else TIMEOUT_S
        verdict(name, name == "rule_off", f"HUNG: no exit in {limit} s (killed)")
        return None
    if expected is None:  # a refusal or the rule turned off: it must end, whatever its code
        refused = [line for line in stderr.splitlines() if "replay-mode none" in line or "not profiled" in line]
        verdict(name, True, f"ended in {seconds:.1f} s with exit {code}; {refused[:2]}")
        return None
    ranks = trained(stdout)
    nvtx = "--range-mode" in extra
    figures = [f"exit {code} in {seconds:.1f} s", f"trained ranks {sorted(ranks)} params_equal "
               f"{[ranks[r][1] for r in sorted(ranks)]}", f"reports for ranks {sorted(found)}"]
    ok = code == 0 and sorted(ranks) == [0, 1] and all(same for _, same in ranks.values()) and sorted(found) == [0, 1]
    uuids = {}
    lists = {}
    for rank, report in found.items():
        samples = report["samples"]
        rows_ok = all(s["rank"] == rank and s["gpu"] is not None and s["gpu_uuid"].startswith("GPU-") and
                      s["pci_bus_id"] for s in samples)
        pids = {s["pid"] for s in samples}
        uuids[rank] = {s["gpu_uuid"] for s in samples}
        nccl = [s for s in samples if NCCL.search(s["kernel"])]
        lists[rank] = [base_name(s["kernel"]) for s in samples]
        part = f"rank {rank}: {len(samples)} samples, pids {sorted(pids)}, rows name rank+GPU {rows_ok}"
        ok = ok and rows_ok and len(samples) > 0 and pids == {ranks.get(rank, (None,))[0]}
        if nvtx:
            # A range's sample is named by its path: NCCL's own ranges may hold it ("NCCL@ncclCommInitRankConfig/step").
            steps = [s for s in samples if s["kernel"].split("/")[-1] == "step"]
            timed = [s for s in steps if s["values"].get(DURATION) is not None]
            part += f", {len(steps)} 'step' range samples ({len(timed)} timed)"
            ok = ok and len(steps) == 3 and len(timed) == 3
        else:
            part += f", {len(nccl)} NCCL launches ({sorted({base_name(s['kernel']) for s in nccl})})"
            ok = ok and len(nccl) > 0
            if replay == "kernel" and counters == MULTI:
                # The rule: NCCL launches measured in one pass of their own, the other group left empty and said.
                timed = [s for s in nccl if s["values"].get(DURATION) is not None]
                empty = [s for s in nccl if s["values"].get(LEFT_OUT) is None]
                others = [s for s in samples if not NCCL.search(s["kernel"])]
                full = [s for s in others if s["values"].get(LEFT_OUT) is not None]
                said = [m for m in report["messages"] if "measured in one pass of its own" in m]
                part += (f"; NCCL timed {len(timed)}/{len(nccl)}, {LEFT_OUT} empty {len(empty)}/{len(nccl)}, "
                         f"other launches with it {len(full)}/{len(others)}, rule message {len(said)}")
                ok = ok and len(timed) == len(nccl) and len(empty) == len(nccl) and len(full) == len(others) and said
        figures.append(part)
    if len(uuids) == 2:
        distinct = uuids[0].isdisjoint(uuids[1]) and len(uuids[0]) == 1 and len(uuids[1]) == 1
        figures.append(f"one GPU per rank, distinct: {distinct}")
        ok = ok and distinct
    if not nvtx:
        kernel_lists[name] = lists
    verdict(name, ok, "; ".join(figures))
    return found


def check_same_kernels():
    """Every kernel-mode run profiled, for each rank, the launches the baseline (none, one pass) did."""
    baseline = kernel_lists.get("none_one")
    if baseline is None:
        return
    for name, lists in kernel_lists.items():
        if name in ("none_one", "slow_rank"):
            continue
        same = {rank: lists.get(rank) == baseline.get(rank) for rank in (0, 1)}
        counts = {rank: (len(lists.get(rank, [])), len(baseline.get(rank, []))) for rank in (0, 1)}
        verdict(f"{name}_kernels_as_baseline", all(same.values()), f"per rank equal {same} (launches, baseline): "
                f"{counts}")


def check_slow_rank(found):
    if found is None or sorted(found) != [0, 1]:
        verdict("compare_names_slow_rank", False, "no two rank reports")
        return
    paths = [os.path.join(work, f"slow_rank.{rank}.json") for rank in (0, 1)]
    code, seconds, stdout, stderr = run_with_timeout([OPENGPA, "compare", *paths, "--json", "-"], 60)
    table = run_with_timeout([OPENGPA, "compare", *paths, "--top", "8"], 60)[2]
    say(f"== opengpa compare (exit {code}):\n{table}{stderr[-2000:]}")
    try:
        groups = json.loads(stdout)["groups"]
    except (ValueError, KeyError):
        verdict("compare_names_slow_rank", False, f"compare exit {code}, no JSON")
        return
    # By NVTX range: the training step (its forward launches are in it) is where rank 1 does 4 times the work.
    by_range = run_with_timeout([OPENGPA, "compare", *paths, "--by", "nvtx", "--json", "-"], 60)
    say(f"== opengpa compare --by nvtx (exit {by_range[0]}):\n{by_range[2][:1500]}")
    try:
        ranges = json.loads(by_range[2])["groups"]
    except (ValueError, KeyError):
        ranges = []
    steps = [g for g in ranges if g["group"].split(" > ")[-1] == "step"]
    compute = [g for g in groups if not NCCL.search(g["group"]) and len(g["members"]) == 2]
    named = [g for g in compute if g["outlier"] == "rank 1"]
    top = compute[0] if compute else None
    ok = (code == 0 and top is not None and top["outlier"] == "rank 1" and len(steps) == 1 and
          steps[0]["outlier"] == "rank 1")
    verdict("compare_names_slow_rank", ok,
            f"the kernel with the most time, {top['group'][:60] if top else None}: outlier "
            f"{top['outlier'] if top else None} x{top['outlier_ratio'] if top else None}; {len(named)} of "
            f"{len(compute)} kernels run by both ranks name rank 1 (the others launch as often on both: optimizer, "
            f"fills); the NVTX range 'step': outlier {steps[0]['outlier'] if steps else None} "
            f"x{steps[0]['outlier_ratio'] if steps else None}")


def check_ncu(port):
    ours = kernel_lists.get("none_one")
    ncu_csv = os.path.join(out, "ncu.csv")
    command = ["ncu", "--target-processes", "all", "--metrics", DURATION, "--csv", "--clock-control", "none",
               "--print-kernel-base", "demangled",
               "--log-file", ncu_csv, *torchrun(port, [])]
    code, seconds, stdout, stderr = run_with_timeout(command, NCU_TIMEOUT_S)
    say(f"== ncu: exit {code} in {seconds:.1f} s\n$ {' '.join(command)}\n{stdout[-1500:]}{stderr[-1500:]}")
    if code is None:
        verdict("ncu_kernels_per_rank", True, f"ncu did not finish in {NCU_TIMEOUT_S} s (killed): nothing to compare")
        return
    ranks = trained(stdout)
    rank_of_pid = {pid: rank for rank, (pid, _) in ranks.items()}
    per_rank = {0: [], 1: []}
    text = open(ncu_csv).read() if os.path.exists(ncu_csv) else ""
    rows = csv.DictReader(io.StringIO("\n".join(line for line in text.splitlines() if line.startswith('"'))))
    for row in rows:
        if row.get("Metric Name") != DURATION:
            continue
        rank = rank_of_pid.get(int(row["Process ID"]))
        if rank is not None:
            per_rank[rank].append(base_name(row["Kernel Name"]))
    same = {rank: ours is not None and per_rank[rank] == ours.get(rank) for rank in (0, 1)}
    nccl = {rank: sum(1 for k in per_rank[rank] if NCCL.search(k)) for rank in (0, 1)}
    counts = {rank: (len(ours.get(rank, [])) if ours else None, len(per_rank[rank])) for rank in (0, 1)}
    detail = ""
    for rank in (0, 1):
        if ours and not same[rank]:
            mine, theirs = ours.get(rank, []), per_rank[rank]
            first = next((i for i in range(min(len(mine), len(theirs))) if mine[i] != theirs[i]),
                         min(len(mine), len(theirs)))
            at = (mine[first] if first < len(mine) else None, theirs[first] if first < len(theirs) else None)
            detail += f"; rank {rank} first difference at launch {first}: ours {at[0]} ncu {at[1]}"
    verdict("ncu_kernels_per_rank", code == 0 and all(same.values()),
            f"ncu exit {code} in {seconds:.1f} s; launches per rank (opengpa, ncu) {counts}; equal in order {same}; "
            f"NCCL launches in ncu {nccl}{detail}")


def main():
    say(f"python {sys.version.split()[0]}; work folder {work}")
    if os.environ.get("DDP_PLAIN", "1") != "0":  # the training without the profiler (DDP_PLAIN=0: not run)
        code, seconds, stdout, stderr = run_with_timeout(torchrun(29400, []), TIMEOUT_S)
        say(f"== plain run: exit {code} in {seconds:.1f} s\n{stdout[-1000:]}{stderr[-2000:]}")
        verdict("plain", code == 0 and sorted(trained(stdout)) == [0, 1], f"exit {code} in {seconds:.1f} s")
    for number, name in enumerate(selected):
        if time.monotonic() - started > BUDGET_S:
            verdict(name, False, f"SKIPPED: the budget of {BUDGET_S:.0f} s was spent")
            continue
        port = 29401 + number
        if name == "ncu":
            check_ncu(port)
            continue
        found = check_profile(name, port)
        if name == "slow_rank":
            check_slow_rank(found)
    check_same_kernels()
    json.dump(summary, open(os.path.join(out, "ddp_summary.json"), "w"), indent=1)
    say(f"{len(summary) - len(failures)} of {len(summary)} checks passed; failed: {failures}; "
        f"{time.monotonic() - started:.0f} s")
    subprocess.run(["tar", "czf", os.path.join(out, "ddp_reports.tar.gz"), "-C", work, "."], check=False)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
