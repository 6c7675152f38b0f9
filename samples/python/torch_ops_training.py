"""One training step of a small PyTorch MLP block as a table of aten ops and a table of modules: kernel rows
from the per-kernel profiler, attributed through torch.profiler (CPU activities only) to the op and module
that launched them, backward kernels included.

    PYTHONPATH=python python3 samples/python/torch_ops_training.py [output-folder]

Prints both tables (time, FLOPs executed, DRAM bytes, Speed of Light) and writes training_ops.csv,
training_modules.csv and training_ops_bars.png. Needs an NVIDIA GPU, PyTorch, pandas and matplotlib.
"""

import os
import sys

import torch

import opengpa
from opengpa import plots
from opengpa.torch_ops import TorchOps

out = sys.argv[1] if len(sys.argv) > 1 else "."
torch.backends.cuda.matmul.allow_tf32 = False  # FP32 products on the FMA pipe, counted by FFMA

model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                            torch.nn.Linear(4096, 1024), torch.nn.LayerNorm(1024)).cuda()
x = torch.randn(8192, 1024, device="cuda")


def step():
    model.zero_grad(set_to_none=True)
    model(x).square().mean().backward()


step()  # warm-up: cuBLAS chooses its kernels outside the profile
torch.cuda.synchronize()
counters = ["GPUTime", "LocalVidMemBytes", "SOL_SM", "SOL_Memory", *plots.FP32_COUNTERS]
# SOL_SM's throughput metric needs several passes by itself, which only CUPTI's kernel replay collects: auto
# refuses such a set (its values are not one pass's: docs/cli.md, Replay modes), so it is asked for by name.
with opengpa.profile(counters, per_kernel=True, replay="kernel") as p, TorchOps(model) as ops:
    p.run(step)  # one row per kernel launch

attributed = ops.attribute(p.results)  # each row: its aten op, module, input shapes, forward or backward
columns = ["region", "count", "GPUTime", "FLOPs", "TFLOP/s", "LocalVidMemBytes", "SOL_SM", "SOL_Memory"]
print(f"{len(p.results)} kernel rows, {p.replay} replay, {p.pass_count} passes on {p.results.device_name}")
for name, table in (("ops", attributed.per_op(by="module_op")), ("modules", attributed.per_module())):
    frame = table.to_dataframe()
    frame["FLOPs"] = plots.flops(table)
    frame["TFLOP/s"] = frame["FLOPs"] / frame["GPUTime"] / 1e3
    print(f"per {name[:-1]}:\n" + frame[columns].to_string(index=False))
    frame.to_csv(os.path.join(out, f"training_{name}.csv"), index=False)
plots.bars(attributed.per_op(by="module_op"), os.path.join(out, "training_ops_bars.png"), "GPUTime", top=12)
