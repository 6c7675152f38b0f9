"""Issue 36: where `opengpa profile --mode sampled` adds time to a whole program. Runs gpt2_generate.py unprofiled
and sampled, alternated ROUNDS times (drifts of the machine fall on both), and splits each run at the phases the
program prints (Unix times: imported, built, on the GPU, warmed up, generated) plus its launch and the end of the
command (for the sampled run: the program's exit, the drain, the attribution and the outputs). Prints each round
and the median of each phase, unprofiled against sampled.
  program_phases.py STAGE [ROUNDS [INTERVAL_US [GPT2 ARGS...]]]"""
import os
import statistics
import subprocess
import sys
import time


def run(command, err_path):
    start = time.time()
    with open(err_path, "w") as err:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=err, check=False)
    end = time.time()
    marks = [("launched", start)]
    with open(err_path) as err:
        for line in err:
            if line.startswith("phases: "):
                for part in line[len("phases: "):].split(", "):
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
    plain, sampled = [], []
    for round_index in range(rounds):
        plain.append(spans(run(program, os.path.join(results, f"plain_{round_index}.err"))))
        sampled.append(spans(run(sampled_command, os.path.join(results, f"sampled_{round_index}.err"))))
        print(f"round {round_index + 1}: unprofiled {plain[-1]['whole']:.3f} s | sampled {sampled[-1]['whole']:.3f} s",
              flush=True)
    print("\n| phase | unprofiled median (s) | sampled median (s) | sampled - unprofiled (s) |")
    print("|---|---|---|---|")
    for phase in plain[0]:
        if not all(phase in s for s in plain + sampled):
            continue
        p = statistics.median(s[phase] for s in plain)
        s = statistics.median(s[phase] for s in sampled)
        print(f"| {phase} | {p:.3f} | {s:.3f} | {s - p:+.3f} |")
    p = statistics.median(s["whole"] for s in plain)
    s = statistics.median(s["whole"] for s in sampled)
    print(f"\nwhole program: median unprofiled {p:.3f} s, sampled {s:.3f} s: x{s / p:.3f}; "
          f"best {min(x['whole'] for x in plain):.3f} / {min(x['whole'] for x in sampled):.3f} s")


if __name__ == "__main__":
    main()
