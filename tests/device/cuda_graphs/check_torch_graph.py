"""Checks `opengpa profile --graph-profiling node` of torch_graph.py: each graph replay is one sample per
kernel node, named as the eager step's kernels that ran just before it, in the same order, with the same
instruction counts (and FFMA counts where measured). Usage: check_torch_graph.py PROFILE.json"""
import json
import sys

INST = "smsp__inst_executed.sum"
document = json.load(open(sys.argv[1]))
samples = sorted(document["samples"], key=lambda s: s["index"])
failures = []


def check(condition, text):
    print(("ok    " if condition else "FAIL  ") + text)
    if not condition:
        failures.append(text)


# Runs of consecutive samples: eager (no graph) or one graph launch (same graph id, node ordinals from 0).
replays = []
for position, s in enumerate(samples):
    if s.get("graph") is not None and s.get("graph_node") == 0:
        replays.append(position)
check(len(replays) == 3, f"{len(replays)} graph replays found (3 expected)")
for number, start in enumerate(replays):
    end = start
    while end < len(samples) and samples[end].get("graph") == samples[start].get("graph") and \
            samples[end].get("graph_node") == end - start:
        end += 1
    nodes = samples[start:end]
    names = [n["kernel"] for n in nodes]
    # The eager step run just before the replay: the latest run of eager samples with the nodes' names.
    eager = []
    for j in range(start - len(nodes), -1, -1):
        window = samples[j:j + len(nodes)]
        if [w["kernel"] for w in window] == names and all(w.get("graph") is None for w in window):
            eager = window
            break
    check(len(eager) == len(nodes) > 0, f"replay {number}: {len(nodes)} node samples, the eager step's kernels found")
    for k, (node, plain) in enumerate(zip(nodes, eager)):
        same_name = node["kernel"] == plain["kernel"]
        text = f"replay {number} node {k}: {node['kernel'][:50]}"
        check(same_name and node["grid"] == plain["grid"], text + " named and shaped as the eager launch")
        for metric, value in node["values"].items():
            if metric == INST or "ffma" in metric:
                ref = plain["values"][metric]
                check(value == ref, f"{text}: {metric} {value} == eager {ref}")
print(f"{len(failures)} check(s) failed")
sys.exit(1 if failures else 0)
