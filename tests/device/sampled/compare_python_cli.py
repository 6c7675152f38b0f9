"""Python's sampled totals against the CLI's on the same program (python_sampled.py): per NVTX range path of the
workload, the launches and each metric's sum over them. PASS when every path of the workload is in both with
the same launch count and each metric within TOLERANCE of the CLI's, and the second Python session (TorchOps
beside it) has the same launches per path, attributed to PyTorch ops.
  compare_python_cli.py CLI.json PYTHON_TOTALS.json"""
import json
import sys

TOLERANCE = 0.05  # two runs of the same work on a shared GPU: DRAM bytes agree within a few percent
PATHS = ["step/mm", "step/relu"]
# A same-dtype copy_ is PyTorch's cudaMemcpyAsync, a copy: it takes its share of the samples but is no row, in
# either mode (the 2026-11-28 run first expected it as a row).
COPY_PATH = "step/copy"
METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum"]


def cli_totals(path):
    document = json.load(open(path))
    paths = {}
    for sample in document["samples"]:
        entry = paths.setdefault("/".join(sample.get("nvtx", [])), {"launches": 0, **{m: 0.0 for m in METRICS}})
        entry["launches"] += 1
        for metric in METRICS:
            value = sample["values"].get(metric)
            entry[metric] += value if value is not None else 0.0
    return paths, document.get("messages", [])


def main():
    cli, messages = cli_totals(sys.argv[1])
    python = json.load(open(sys.argv[2]))
    failures = 0
    print("| range path | launches CLI / Python | metric | CLI | Python | Python / CLI |")
    print("|---|---|---|---|---|---|")
    for path in PATHS:
        a, b = cli.get(path), python["paths"].get(path)
        if a is None or b is None:
            print(f"FAIL: range path {path!r} missing (CLI {a is not None}, Python {b is not None})")
            failures += 1
            continue
        if a["launches"] != b["launches"]:
            failures += 1
        for metric in METRICS:
            ratio = b[metric] / a[metric] if a[metric] else float("nan")
            ok = abs(ratio - 1.0) <= TOLERANCE
            failures += 0 if ok else 1
            print(f"| {path} | {a['launches']} / {b['launches']} | {metric} | {a[metric]:.4g} | {b[metric]:.4g} | "
                  f"{ratio:.4f}{'' if ok else ' FAIL'} |")
    if COPY_PATH in cli or COPY_PATH in python["paths"]:
        print(f"FAIL: {COPY_PATH!r} (a memcpy) is a row: CLI {COPY_PATH in cli}, "
              f"Python {COPY_PATH in python['paths']}")
        failures += 1
    second = python.get("with_torch_ops", {})
    ops = second.get("ops", {})
    print("Python per op (second session, TorchOps):", {name: v["launches"] for name, v in ops.items()},
          "unattributed:", second.get("unattributed"))
    for path in PATHS:
        if second.get("paths", {}).get(path, {}).get("launches") != python["paths"].get(path, {}).get("launches"):
            print(f"FAIL: the second session's {path!r} launches differ from the first's")
            failures += 1
    if not any(name.startswith("aten::") for name in ops):
        print("FAIL: no PyTorch op attributed")
        failures += 1
    print("CLI:", *[m for m in messages if "PM sampling" in m][:1])
    print("Python:", *[m for m in python.get("messages", []) if "PM sampling" in m][:1])
    print("PASS" if failures == 0 else f"FAIL ({failures})")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
