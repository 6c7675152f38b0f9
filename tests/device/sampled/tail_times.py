"""Issue 36: where the time after a program's last phase goes under `opengpa profile --mode sampled`. Runs
gpt2_generate.py unprofiled and sampled, alternated ROUNDS times, stamps every line of their output as it arrives,
and prints, per run, each line's time after the program's "phases:" line (its last, printed when its work is done)
and the command's end: the program's own exit, then each of the CLI's messages (the drain, the reading,
the attribution, the outputs) and the CLI's own exit after its last line.
  tail_times.py STAGE [ROUNDS [GPT2 ARGS...]]"""
import os
import statistics
import subprocess
import sys
import time


def stamped(command):
    lines = []
    # Standard output too, line-buffered (stdbuf), where opengpa says what it wrote, its last line.
    process = subprocess.Popen(["stdbuf", "-oL", *command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, bufsize=1)
    for line in process.stdout:
        lines.append((time.time(), line.rstrip("\n")))
    process.wait()
    ended = time.time()
    phases = next((t for t, line in lines if line.startswith("phases: ")), None)
    return phases, lines, ended


def main():
    stage = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    args = sys.argv[3:] or ["60", "16", "128"]
    program = ["python3", os.path.join(stage, "gpt2_generate.py"), *args]
    results = os.environ.get("RESULTS_DIR", "/tmp/opengpa-tail-times")
    os.makedirs(results, exist_ok=True)
    sampled = [os.path.join(stage, "bin", "opengpa"), "profile", "--api", "cuda", "-f", "--mode", "sampled",
               "--sampling-interval-us", "20", "-o", os.path.join(results, "gpt2_sampled"), "--", *program]
    tails = {"unprofiled": [], "sampled": []}
    for index in range(rounds):
        for name, command in (("unprofiled", program), ("sampled", sampled)):
            phases, lines, ended = stamped(command)
            if phases is None:
                print(f"{name} round {index + 1}: no phases line")
                continue
            tails[name].append(ended - phases)
            print(f"{name} round {index + 1}: command ended {ended - phases:.3f} s after the phases line")
            if name == "sampled":
                for stamp, line in lines:  # the CLI's own lines (its per-kernel table left out)
                    if stamp >= phases and line.startswith(("opengpa profile: ", "wrote ")):
                        print(f"  +{stamp - phases:.3f} s  {line[:160]}")
    for name, values in tails.items():
        if values:
            print(f"{name}: median {statistics.median(values):.3f} s from the phases line to the command's end")


if __name__ == "__main__":
    main()
