"""Issue 36: where `opengpa profile --mode sampled` adds time to a whole program. Runs gpt2_generate.py unprofiled
and sampled, alternated ROUNDS times (drifts of the machine fall on both), and splits each run at the phases the
program prints (Unix times: imported, built, on the GPU, warmed up, generated) plus its launch and the end of the
command (for the sampled run: the program's exit, the drain, the attribution and the outputs). Prints each round
and the median of each phase, unprofiled against sampled. BESIDE_MONITOR=1 adds a third run per round: the program
unprofiled while `opengpa monitor` samples the same PM metrics at the same interval from another process, which
separates what PM sampling's decoding costs the machine from what the profiler costs inside the program.
  program_phases.py STAGE [ROUNDS [INTERVAL_US [GPT2 ARGS...]]]"""
import os
import statistics
import subprocess
import sys
import time


def run(command, err_path, environment=None):
    """The program's marks: its launch, each phase its "phases:" line names (Unix times; a "(CPU ...)" after a time
    is left out) and the command's end."""
    start = time.time()
    with open(err_path, "w") as err, open(err_path[:-len(".err")] + ".out", "w") as out:
        subprocess.run(command, stdout=out, stderr=err, check=False, env=environment)
    end = time.time()
    marks = [("launched", start)]
    with open(err_path) as err:
        for line in err:
            if line.startswith("phases: "):
                for part in line[len("phases: "):].strip().split(", "):
                    name, rest = part.rsplit(" (CPU", 1)[0].rsplit(" ", 1)
                    marks.append((name, float(rest)))
    marks.append(("command ended", end))
    return marks


def spans(marks):
    return {f"{a[0]} -> {b[0]}": b[1] - a[1] for a, b in zip(marks, marks[1:])} | {"whole": marks[-1][1] - marks[0][1]}


def main():
    stage = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    interval = sys.argv[3] if len(sys.argv) > 3 else "20"
    args = sys.argv[4:] or ["60", "16", "128"]
    program = ["python3", os.path.join(stage, "gpt2_generate.py"), *args]
    results = os.environ.get("RESULTS_DIR", "/tmp/opengpa-program-phases")
    os.makedirs(results, exist_ok=True)
    sampled_command = [os.path.join(stage, "bin", "opengpa"), "profile", "--api", "cuda", "-f", "--mode", "sampled",
                       "--sampling-interval-us", interval, "-o", os.path.join(results, "gpt2_sampled"), "--", *program]
    beside = os.environ.get("BESIDE_MONITOR") == "1"
    monitor_command = [os.path.join(stage, "bin", "opengpa"), "monitor", "--counters",
                       "dram__bytes_read.sum,dram__bytes_write.sum", "--pm-interval-us", interval, "--csv",
                       os.path.join(results, "monitor.csv"), "-f"]
    plain, sampled, monitored = [], [], []
    for round_index in range(rounds):
        plain.append(spans(run(program, os.path.join(results, f"plain_{round_index}.err"))))
        sampled.append(spans(run(sampled_command, os.path.join(results, f"sampled_{round_index}.err"))))
        line = f"round {round_index + 1}: unprofiled {plain[-1]['whole']:.3f} s | sampled {sampled[-1]['whole']:.3f} s"
        if beside:
            with open(os.path.join(results, f"monitor_{round_index}.err"), "w") as err:
                monitor = subprocess.Popen(monitor_command, stdout=subprocess.DEVNULL, stderr=err)
                time.sleep(2.0)  # its PM sampling set up before the program starts
                monitored.append(spans(run(program, os.path.join(results, f"monitored_{round_index}.err"))))
                monitor.terminate()
                monitor.wait(timeout=30)
            line += f" | unprofiled beside the monitor {monitored[-1]['whole']:.3f} s"
        print(line, flush=True)
    print("\n| phase | unprofiled median (s) | sampled median (s) | sampled - unprofiled (s) |" +
          (" beside the monitor (s) | beside - unprofiled (s) |" if beside else ""))
    print("|---|---|---|---|" + ("---|---|" if beside else ""))
    for phase in plain[0]:
        if not all(phase in s for s in plain + sampled + monitored):
            continue
        p = statistics.median(s[phase] for s in plain)
        s = statistics.median(s[phase] for s in sampled)
        line = f"| {phase} | {p:.3f} | {s:.3f} | {s - p:+.3f} |"
        if beside:
            m = statistics.median(x[phase] for x in monitored)
            line += f" {m:.3f} | {m - p:+.3f} |"
        print(line)
    p = statistics.median(s["whole"] for s in plain)
    s = statistics.median(s["whole"] for s in sampled)
    print(f"\nwhole program: median unprofiled {p:.3f} s, sampled {s:.3f} s: x{s / p:.3f}; "
          f"best {min(x['whole'] for x in plain):.3f} / {min(x['whole'] for x in sampled):.3f} s")
    # Each round's two runs ran back to back: the median of their ratios is steadier than the ratio of medians when
    # the machine drifts. The imports (Python's, before CUDA starts) vary by seconds from run to run on some machines
    # and hold no profiler work but CUDA's start, so the time after them is given too.
    ratios = [b["whole"] / a["whole"] for a, b in zip(plain, sampled)]
    after = [(a["whole"] - a["launched -> imported"], b["whole"] - b["launched -> imported"])
             for a, b in zip(plain, sampled) if "launched -> imported" in a and "launched -> imported" in b]
    print(f"median of the rounds' ratios x{statistics.median(ratios):.3f} (from x{min(ratios):.3f} to "
          f"x{max(ratios):.3f})")
    if after:
        p_after = statistics.median(a for a, _ in after)
        s_after = statistics.median(b for _, b in after)
        ratio_after = statistics.median(b / a for a, b in after)
        print(f"after the imports: median unprofiled {p_after:.3f} s, sampled {s_after:.3f} s: "
              f"x{s_after / p_after:.3f}; median of the rounds' ratios x{ratio_after:.3f}")


if __name__ == "__main__":
    main()
