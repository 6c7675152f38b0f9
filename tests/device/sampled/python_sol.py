"""Issue 36: the sampled Speed-of-Light columns from Python and from the CLI on work whose limiting unit is known
(on the GPU machine). An fp16 8192x8192 matrix product is bound by the SMs (tensor pipes) and a relu over 1 GiB by
DRAM; each lasts well over three 200 µs intervals, the interval the SOL set is sampled at by default.

  python_sol.py plain          the work alone, STEPS times (what `opengpa profile --mode sampled --metrics
                               SpeedOfLight` runs)
  python_sol.py python         the same inside opengpa.profile("SpeedOfLight", per_kernel=True, mode="sampled"),
                               printing per kernel its launches, SOL columns and bottleneck, and checking them

Exit status 1 when a check fails: the matrix product's GPUBottleneck must be an SM-side unit, 0 (SM) or 1 (L1/TEX:
cuBLAS's tensor-core GEMM on the H200 feeds its pipes through shared memory, and the CLI read L1/TEX 94 % beside SM
93 %), with SOL_SM >= 60; the relu's 3 (DRAM) with SOL_DRAM >= 60; in every launch covered by samples."""
import sys

import torch

STEPS = 10
COLUMNS = ["SOL_SM", "SOL_L1TEX", "SOL_L2", "SOL_DRAM", "SOL_Memory", "GPUBottleneck"]


def make():
    torch.manual_seed(0)
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    x = torch.randn(256 << 20, device="cuda")  # 1 GiB of fp32, 20 times the L2
    torch.cuda.synchronize()
    return a, b, x


def work(a, b, x):
    for _ in range(STEPS):
        torch.mm(a, b)
        torch.relu(x)
    torch.cuda.synchronize()


def kind(name):
    return "relu" if "relu" in name.lower() or "clamp" in name.lower() else (
        "mm" if any(word in name.lower() for word in ("gemm", "sm90", "cutlass", "nvjet")) else "other")


def main():
    tensors = make()
    work(*tensors)  # warm-up: cuBLAS's choice and the allocator settle outside the profile
    if sys.argv[1] == "plain":
        work(*tensors)
        return 0
    import opengpa
    with opengpa.profile("SpeedOfLight", per_kernel=True, mode="sampled") as p:
        work(*tensors)
    for message in p.messages[:3]:
        print("message:", message)
    results = p.results
    failures = 0
    print(f"{len(results)} launches; columns {', '.join(results.counter_names)}")
    for i, name in enumerate(results.kernels):
        values = {c: float(results[c][i]) for c in COLUMNS}
        covered = float(results["pm__coverage"][i])
        duration_us = float(results["duration"][i]) / 1e3
        which = kind(name)
        print(f"{which:5s} {duration_us:8.1f} µs coverage {covered:.2f} " +
              " ".join(f"{c} {values[c]:.1f}" for c in COLUMNS) + f"  {name[:60]}")
        if covered < 0.99:
            continue
        if which == "mm" and not (values["GPUBottleneck"] in (0, 1) and values["SOL_SM"] >= 60):
            failures += 1
        if which == "relu" and not (values["GPUBottleneck"] == 3 and values["SOL_DRAM"] >= 60):
            failures += 1
    print("FAIL" if failures else "PASS", f"({failures} launch(es) off their known bottleneck)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
