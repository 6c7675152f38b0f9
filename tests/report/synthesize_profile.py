"""A SYNTHETIC profile JSON for rendering tests and the report's benchmark: nothing in it was measured.

It takes a real profile's shape (tests/report/data/h100_torch_ops.profile.json, recorded on an H100: its kernel
names, grids, blocks and counters) and repeats its launches to `--launches` rows, spread over `--ranks` ranks, with
values drawn from a seeded generator around the real ones, and adds the Speed-of-Light counters (docs/sol.md) so
that the summary's SOL bars and bottlenecks have something to draw. The document says it is synthetic: its command
is ["synthetic"] and its first message names this script. `--slower KERNEL_SUBSTRING:FACTOR` multiplies the time
of the matching kernels (the "after" of a diff).

    python3 tests/report/synthesize_profile.py --launches 5000 --ranks 2 -o synthetic.json
"""

import argparse
import json
import pathlib
import random

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
REAL = REPOSITORY / "tests" / "report" / "data" / "h100_torch_ops.profile.json"
SOL = ("SOL_SM", "SOL_Memory", "SOL_L1TEX", "SOL_L2", "SOL_DRAM")


def synthesize(launches, ranks, seed, slower=None):
    with open(REAL) as real_file:
        real = json.load(real_file)
    generator = random.Random(seed)
    counters = list(real["counters"])
    counters += [{"name": name, "usage": "percentage", "data_type": "float64"} for name in SOL]
    counters.append({"name": "GPUBottleneck", "usage": "items", "data_type": "uint64"})
    samples = []
    per_rank = max(1, launches // ranks)
    for number in range(launches):
        rank = min(number // per_rank, ranks - 1)
        template = real["samples"][number % len(real["samples"])]
        scale = generator.uniform(0.8, 1.25)
        if slower and slower[0] in template["kernel"]:
            scale *= slower[1]
        values = {}
        for counter in real["counters"]:
            value = template["values"].get(counter["name"])
            values[counter["name"]] = None if value is None else round(value * scale)
        sol = [round(generator.uniform(5, 95), 2) for _ in SOL]
        values.update(dict(zip(SOL, sol)))
        units = [sol[0], sol[2], sol[3], sol[4]]  # SM, L1/TEX, L2, DRAM: GPUBottleneck's candidates
        values["GPUBottleneck"] = units.index(max(units)) if max(units) >= 60 else 4
        sample = dict(template, pid=1000 + rank, rank=rank, host="synthetic", index=number - rank * per_rank,
                      values=values)
        samples.append(sample)
    return {"schema": "opengpa-profile/1", "api": "cuda", "device": real["device"] + " (synthetic data)",
            "command": ["synthetic"], "exit_code": 0, "wall_time_s": 0.0, "counters": counters,
            "queues": real["queues"],
            "processes": [{"pid": 1000 + r, "rank": r, "host": "synthetic"} for r in range(ranks)],
            "samples": samples,
            "messages": [f"synthetic profile from tests/report/synthesize_profile.py (seed {seed}), not measured"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=5000)
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--slower", help="KERNEL_SUBSTRING:FACTOR")
    parser.add_argument("-o", "--output", required=True)
    arguments = parser.parse_args()
    slower = None
    if arguments.slower:
        name, factor = arguments.slower.rsplit(":", 1)
        slower = (name, float(factor))
    with open(arguments.output, "w") as output:
        json.dump(synthesize(arguments.launches, arguments.ranks, arguments.seed, slower), output)


if __name__ == "__main__":
    main()
