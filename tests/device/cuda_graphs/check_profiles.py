"""Checks `opengpa profile`'s JSON of graph_workload, streams_contexts and nvtx_other_thread against the known
work (issue 12) and prints a compact table. Usage:
check_profiles.py graphs|nodes|streams|nvtx|children|children-whole PROFILE.json
[LAUNCHES or STEPS] (graphs: --graph-profiling graph, one sample per graph launch; nodes: the default, one per
kernel node; nvtx: --range-mode nvtx, one sample per NVTX range; children: graph_children node by node,
children-whole: graph_children with --graph-profiling graph). Exit 1 on a failed check."""
import json
import sys

INST, READ, WRITE = "smsp__inst_executed.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"
FFMA = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
failures = []


def check(condition, text):
    print(("ok    " if condition else "FAIL  ") + text)
    if not condition:
        failures.append(text)


def within(value, expected, tolerance=0.02):
    return expected > 0 and abs(value - expected) <= tolerance * expected


def graphs(document, launches):
    samples = sorted(document["samples"], key=lambda s: s["index"])
    values = [s["values"] for s in samples]
    check(len(samples) == 4 + 4 * launches, f"{len(samples)} samples for 4 plain launches and {launches} x 4 graphs")
    names = [s["kernel"] for s in samples]
    print("index  graph node  kernel" + "".join(f"  {c.split('__')[1][:22]:>22}" for c in values[0]))
    for s in samples:
        print(f"{s['index']:5}  {str(s.get('graph', '')):>5} {str(s.get('graph_node', '')):>4}  {s['kernel'][:60]:60}"
              + "".join(f"  {v:22.0f}" if v is not None else f"  {'n/a':>22}" for v in s["values"].values()))
    if len(samples) < 4 + 4 * launches:
        return
    ffma_k, ffma_2k, copy, scale = values[:4]
    has_ffma = FFMA in values[0]
    for i in range(launches):
        g, e, p, single = samples[4 + 4 * i: 8 + 4 * i]
        check(g["kernel"].startswith("CUDA graph: 3 kernel nodes (known_ffma")
              and g["kernel"].endswith("+ 2 other nodes") and "graph" in g and g["grid"] == [0, 0, 0],
              f"launch {i}: G is one sample of the whole graph: {g['kernel']}")
        check(e["kernel"].startswith("CUDA graph: 3 kernel nodes") and e["kernel"].endswith("+ 1 other node"),
              f"launch {i}: E is one sample of the whole graph")
        check(p["kernel"].startswith("CUDA graph: 3 kernel nodes") and "other" not in p["kernel"],
              f"launch {i}: P (kernels only) is one sample")
        check(single["kernel"] == names[2] and single.get("graph_node") == 0 and single["grid"] == samples[2]["grid"],
              f"launch {i}: S is the copy's own sample, named, with its grid: {single['kernel']}")
        check(g["index"] == 4 + 10 * i and e["index"] == g["index"] + 3 and p["index"] == e["index"] + 3
              and single["index"] == p["index"] + 3, f"launch {i}: launch indexes count kernel nodes")
        pv, sv, gv, ev = p["values"], single["values"], g["values"], e["values"]
        kernels3 = ffma_k[INST] + copy[INST] + scale[INST]
        check(pv[INST] == kernels3,
              f"launch {i}: P instructions {pv[INST]:.0f} == ffma(K) + copy + scale {kernels3:.0f}")
        check(sv[INST] == copy[INST], f"launch {i}: S instructions {sv[INST]:.0f} == copy's {copy[INST]:.0f}")
        for metric in (READ, WRITE):
            total = ffma_k[metric] + copy[metric] + scale[metric]
            text = f"launch {i}: P {metric} {pv[metric]:.0f} vs {total:.0f} ({pv[metric] / total - 1:+.3%})"
            if metric == READ:
                check(within(pv[metric], total), text)
            else:
                # Inside one graph no flush runs between nodes: the lines the copy leaves dirty in L2 are written
                # back during the scale, in P's range, where each plain launch's were written back by the flush
                # after it, outside any range. So P writes the sum plus at most one L2 (50 MiB) more.
                check(total * 0.98 <= pv[metric] <= total + (50 << 20), text + ", at most one L2 more")
            check(within(sv[metric], copy[metric]), f"launch {i}: S {metric} {sv[metric]:.0f} vs {copy[metric]:.0f} "
                  f"({sv[metric] / copy[metric] - 1:+.3%})")
        check(gv[INST] > kernels3 and ev[INST] > ffma_2k[INST] + copy[INST] + scale[INST],
              f"launch {i}: G and E hold their kernels' instructions and their memset/memcpy nodes' "
              f"(+{gv[INST] - kernels3:.0f}, +{ev[INST] - ffma_2k[INST] - copy[INST] - scale[INST]:.0f})")
        if has_ffma:
            # SASS-instrumented: read 0 inside graphs on the H100, so graph samples leave it unavailable (null).
            check(all(v[FFMA] is None for v in (gv, ev, pv, sv)), f"launch {i}: FFMA unavailable in graph samples")
    if has_ffma:
        check(ffma_k[FFMA] == 528 * 256 * 1001 and ffma_2k[FFMA] == 528 * 256 * 2001,
              f"plain FFMA {ffma_k[FFMA]:.0f}, {ffma_2k[FFMA]:.0f} == threads x (iterations + 1)")


def nodes(document, launches):
    """--graph-profiling node: every kernel node its own sample, equal to the same kernel launched plainly."""
    samples = sorted(document["samples"], key=lambda s: s["index"])
    check(len(samples) == 4 + 10 * launches,
          f"{len(samples)} samples for 4 plain launches and {launches} x 10 kernel nodes")
    print("index  graph node  kernel" + "".join(f"  {c.split('__')[1][:22]:>22}" for c in samples[0]["values"]))
    for s in samples:
        print(f"{s['index']:5}  {str(s.get('graph', '')):>5} {str(s.get('graph_node', '')):>4}  {s['kernel'][:60]:60}"
              + "".join(f"  {v:22.0f}" if v is not None else f"  {'n/a':>22}" for v in s["values"].values()))
    if len(samples) < 4 + 10 * launches:
        return
    ffma_k, ffma_2k, copy, scale = samples[:4]
    # Per launch: G = ffma(K), copy, scale; E = ffma(2K), copy, scale; P = ffma(K), copy, scale; S = copy.
    expected = [ffma_k, copy, scale, ffma_2k, copy, scale, ffma_k, copy, scale, copy]
    ordinals = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    graphs = []
    for i in range(launches):
        row = samples[4 + 10 * i: 14 + 10 * i]
        graphs.append([s.get("graph") for s in row])
        for k, (s, reference, ordinal) in enumerate(zip(row, expected, ordinals)):
            where = f"launch {i} node sample {k} ({s['kernel'][:24]})"
            check(s["kernel"] == reference["kernel"] and s["grid"] == reference["grid"]
                  and s.get("graph_node") == ordinal and s["index"] == 4 + 10 * i + k,
                  f"{where}: named, shaped, ordered as the plain launch")
            for metric, value in s["values"].items():
                ref = reference["values"][metric]
                if metric in (INST, FFMA):
                    check(value == ref, f"{where}: {metric} {value:.0f} == plain {ref:.0f}")
                elif metric in (READ, WRITE) and ref > (1 << 20):
                    check(within(value, ref),
                          f"{where}: {metric} {value:.0f} vs plain {ref:.0f} ({value / ref - 1:+.3%})")
    check(all(len(set(g[0:3])) == 1 and len(set(g[3:6])) == 1 and len(set(g[6:9])) == 1
              and len({g[0], g[3], g[6], g[9]}) == 4 and None not in g for g in graphs)
          and len({tuple(g) for g in graphs}) == 1,
          "each graph's nodes carry its id, the four graphs told apart, the same ids at every launch")
    if FFMA in ffma_k["values"]:
        check(ffma_k["values"][FFMA] == 528 * 256 * 1001 and ffma_2k["values"][FFMA] == 528 * 256 * 2001,
              "plain FFMA == threads x (iterations + 1)")


def streams(document):
    samples = sorted(document["samples"], key=lambda s: s["index"])
    check(len(samples) == 16, f"{len(samples)} samples of 2 contexts x 2 streams x 4 launches")
    print("index  context  queue  ffma")
    for s in samples:
        print(f"{s['index']:5}  {s.get('context', 0):7}  {s['queue']:5}  {s['values'][FFMA]:.0f}")
    for position, s in enumerate(samples):
        k, j, stream = position // 8, (position % 8) // 2, position % 2
        expected = 264 * 256 * (100 * (1 + 4 * k + 2 * stream + (j & 1)) + 1)
        check(s["values"][FFMA] == expected, f"launch {position} (context {k}, stream {stream}): FFMA "
              f"{s['values'][FFMA]:.0f} == {expected}")
    contexts = [s.get("context", 0) for s in samples]
    check(len(set(contexts[:8])) == 1 and len(set(contexts[8:])) == 1 and contexts[0] != contexts[8]
          and 0 not in contexts,
          f"two contexts told apart: {sorted(set(contexts))}")
    queues = [(s.get("context"), s["queue"]) for s in samples]
    check(len(set(queues)) == 4 and all(queues[i] == queues[i % 2 + 8 * (i // 8)] for i in range(16)),
          f"four streams told apart, each launch on its own: {sorted(set(queues))}")


def children(document, whole):
    samples = sorted(document["samples"], key=lambda s: s["index"])
    plain = samples[:6]  # ffma_accumulate with 1K .. 6K iterations
    launches = [[1, 2, 3, 4]] * 3 + [[1, 5, 6, 4]]  # graph_children.cu's four graph launches
    metrics = [m for m in (INST, FFMA) if m in samples[0]["values"]]
    graph_samples = samples[6:]
    expected_count = len(launches) if whole else sum(len(nodes) for nodes in launches)
    check(len(graph_samples) == expected_count,
          f"{len(graph_samples)} graph samples == {expected_count} ({'one per launch' if whole else 'one per node'})")
    print("index  graph node  kernel" + "".join(f"  {m.split('__')[1][:22]:>22}" for m in metrics))
    for s in samples:
        print(f"{s['index']:5}  {str(s.get('graph', '')):>5} {str(s.get('graph_node', '')):>4}  {s['kernel'][:50]:50}"
              + "".join(f"  {s['values'].get(m) if s['values'].get(m) is not None else float('nan'):22.0f}"
                        for m in metrics))
    if whole:
        # SASS-instrumented metrics (FFMA) are not counted inside whole graph launches: left unavailable.
        check(all(s["values"].get(FFMA) is None for s in graph_samples),
              "FFMA left unavailable in whole graph launches (CUPTI does not instrument graphs)")
        # Each launch also runs a memset and a memcpy node, which the driver runs as kernels of its own: the
        # sample is the four kernels' sum plus that work, the same amount at every launch.
        extra = []
        for launch, s in zip(launches, graph_samples):
            check(s["kernel"].endswith("+ 2 other nodes"), f"graph launch {s['index']} named with its 2 other nodes")
            expected = sum(plain[k - 1]["values"][INST] for k in launch)
            extra.append(s["values"][INST] - expected)
            check(0 <= extra[-1] <= 0.01 * expected,
                  f"graph launch {s['index']} instructions {s['values'][INST]:.0f} == sum of plain {launch} "
                  f"{expected:.0f} + the memset and memcpy ({extra[-1]:.0f})")
        check(len(set(extra)) == 1, f"the memset and memcpy add the same instructions at every launch: {extra}")
        return
    position = 0
    for number, launch in enumerate(launches):
        nodes = graph_samples[position:position + len(launch)]
        position += len(launch)
        check([s.get("graph_node") for s in nodes] == list(range(len(launch))),
              f"launch {number + 1}: graph_node 0..{len(launch) - 1} in order")
        for k, s in zip(launch, nodes):
            check(s["kernel"] == plain[k - 1]["kernel"], f"launch {number + 1}, {k}K node named as its kernel")
            for m in metrics:
                check(s["values"][m] == plain[k - 1]["values"][m],
                      f"launch {number + 1}, {k}K node: {m} {s['values'][m]:.0f} == "
                      f"plain {plain[k - 1]['values'][m]:.0f}")


def nvtx(document, steps):
    samples = sorted(document["samples"], key=lambda s: s["index"])
    expected = 528 * 256 * (1001 + 2001)  # known_ffma(K) and known_ffma(2K) in every range
    for name, who in (("marked", "a thread with no CUDA context"), ("main", "the launching thread")):
        ranges = [s for s in samples if s["kernel"].split("/")[-1] == name]
        ffma = [s["values"].get(FFMA) for s in ranges]
        print(f"{name}: {len(ranges)} samples, FFMA {sorted(set(ffma))}")
        check(len(ranges) == steps, f"{len(ranges)} \"{name}\" range samples (pushed by {who}) == {steps}")
        check(all(value == expected for value in ffma), f"every \"{name}\" range's FFMA == {expected}")
    messages = document.get("messages", [])
    check(any("no current CUDA context" in m for m in messages),
          "a message says which context the marker thread's ranges sample")
    for m in messages:
        print("message:", m[:220])


if __name__ == "__main__":
    with open(sys.argv[2]) as file:
        document = json.load(file)
    if sys.argv[1] == "graphs":
        graphs(document, int(sys.argv[3]) if len(sys.argv) > 3 else 3)
    elif sys.argv[1] == "nodes":
        nodes(document, int(sys.argv[3]) if len(sys.argv) > 3 else 3)
    elif sys.argv[1] in ("children", "children-whole"):
        children(document, sys.argv[1] == "children-whole")
    elif sys.argv[1] == "nvtx":
        nvtx(document, int(sys.argv[3]) if len(sys.argv) > 3 else 8)
    else:
        streams(document)
    print(f"{sys.argv[1]} {sys.argv[2]}: {len(failures)} check(s) failed")
    sys.exit(1 if failures else 0)
