"""Issue 36: where `opengpa profile --mode sampled` adds time to a program's start and end. Runs start_probe.py
unprofiled, with the profiler's library injected alone (CUPTI's kernel records, no PM sampling, no CLI) and under
`opengpa profile --mode sampled`, alternated ROUNDS times, and prints the median of each span between the probe's
phases, the launch and the command's end (for the sampled run, that includes the CLI's drain, attribution and
outputs).
  start_cost.py STAGE [ROUNDS]"""
import os
import statistics
import sys

from program_phases import run, spans  # the same marks and spans as the GPT-2 runs


def main():
    stage = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    results = os.environ.get("RESULTS_DIR", "/tmp/opengpa-start-cost")
    os.makedirs(results, exist_ok=True)
    program = ["python3", os.path.join(stage, "start_probe.py")]
    sampled_command = [os.path.join(stage, "bin", "opengpa"), "profile", "--api", "cuda", "-f", "--mode", "sampled",
                       "-o", os.path.join(results, "probe_sampled"), "--", *program]
    library = os.path.join(stage, "lib", "libopengpa_inject_cuda.so")
    injected_environment = dict(os.environ, CUDA_INJECTION64_PATH=library, NVTX_INJECTION64_PATH=library,
                                OPENGPA_PROFILE_OUTPUT=os.path.join(results, "injected.jsonl"),
                                OPENGPA_PROFILE_MODE="sampled")
    runs = {"unprofiled": [], "injected alone": [], "sampled": []}
    for index in range(rounds):
        runs["unprofiled"].append(spans(run(program, os.path.join(results, f"plain_{index}.err"))))
        if os.path.exists(injected_environment["OPENGPA_PROFILE_OUTPUT"]):
            os.remove(injected_environment["OPENGPA_PROFILE_OUTPUT"])
        runs["injected alone"].append(spans(run(program, os.path.join(results, f"injected_{index}.err"),
                                                injected_environment)))
        runs["sampled"].append(spans(run(sampled_command, os.path.join(results, f"sampled_{index}.err"))))
        print(f"round {index + 1}: " + " | ".join(f"{name} {r[-1]['whole']:.3f} s" for name, r in runs.items()),
              flush=True)
    names = list(runs)
    print("\n| span | " + " | ".join(f"{name} median (s)" for name in names) + " | " +
          " | ".join(f"{name} - unprofiled (s)" for name in names[1:]) + " |")
    print("|---" * (2 * len(names)) + "|")
    for span in runs["unprofiled"][0]:
        if all(span in r for results_of in runs.values() for r in results_of):
            medians = [statistics.median(r[span] for r in runs[name]) for name in names]
            print(f"| {span} | " + " | ".join(f"{m:.3f}" for m in medians) + " | " +
                  " | ".join(f"{m - medians[0]:+.3f}" for m in medians[1:]) + " |")
    with open(injected_environment["OPENGPA_PROFILE_OUTPUT"]) as stream:
        messages = [line.strip() for line in stream if '"type":"message"' in line]
    print("\nthe injected library's messages (last run):", *messages, sep="\n  ")


if __name__ == "__main__":
    main()
