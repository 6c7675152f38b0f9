"""Profiles one forward step of a small PyTorch MLP block per operator and draws its roofline.

    PYTHONPATH=python python3 samples/python/profile_mlp.py [output-folder]

Prints the per-op table (time, FLOPs executed, DRAM bytes, Speed of Light) and writes mlp_ops.csv,
mlp_roofline.png and mlp_bars.png. Needs an NVIDIA GPU, PyTorch, pandas and matplotlib.
"""

import os
import sys

import torch

import opengpa
from opengpa import plots
from opengpa.torch_ops import op_regions

out = sys.argv[1] if len(sys.argv) > 1 else "."
torch.backends.cuda.matmul.allow_tf32 = False  # FP32 products on the FMA pipe, counted by FFMA

model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                            torch.nn.Linear(4096, 1024), torch.nn.LayerNorm(1024)).cuda()
x = torch.randn(8192, 1024, device="cuda")


def step():
    with torch.no_grad(), op_regions(model):  # one region per aten op, named <module>/<op>
        model(x)


step()  # warm-up: cuBLAS chooses its kernels outside the profile
counters = ["GPUTime", "LocalVidMemBytes", "SOL_SM", "SOL_Memory", *plots.FP32_COUNTERS]
with opengpa.profile(counters) as p:
    p.run(step)  # the set takes several passes: step() runs once per pass

ops = p.results.aggregate()
table = ops.to_dataframe()
table["FLOPs"] = plots.flops(ops)
table["TFLOP/s"] = table["FLOPs"] / table["GPUTime"] / 1e3
print(f"{p.pass_count} passes on {ops.device_name}")
print(table[["region", "GPUTime", "FLOPs", "TFLOP/s", "LocalVidMemBytes", "SOL_SM", "SOL_Memory"]].to_string())
table.to_csv(os.path.join(out, "mlp_ops.csv"), index=False)


def median_seconds(work, repeats=10):
    work()
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    return sorted(times)[len(times) // 2]


# The device's own ceilings: a 2 GiB copy (bytes read + written) and an 8192^3 matrix product per type.
source = torch.empty(1 << 29, device="cuda")
target = torch.empty_like(source)
bandwidth = 2 * source.numel() * 4 / median_seconds(lambda: target.copy_(source))
roofs = {}
for name, dtype in (("bf16 tensor", torch.bfloat16), ("fp32 FMA", torch.float32)):
    a = torch.randn(8192, 8192, device="cuda", dtype=dtype)
    roofs[name] = 2 * 8192 ** 3 / median_seconds(lambda: a @ a)
print(f"ceilings: DRAM {bandwidth / 1e12:.2f} TB/s, " +
      ", ".join(f"{name} {rate / 1e12:.1f} TFLOP/s" for name, rate in roofs.items()))

plots.roofline(ops, os.path.join(out, "mlp_roofline.png"), roofs, bandwidth,
               title="MLP block, one forward step (fp32): ops under the H100's measured ceilings")
plots.bars(ops, os.path.join(out, "mlp_bars.png"), "GPUTime")
