"""A small PyTorch step whose kernels both torch.profiler and opengpa's per-kernel rows list
(test_kernels_device.py). Run as a script, it prints torch.profiler's kernel names as JSON: torch.profiler
subscribes to CUPTI as opengpa does, and CUPTI takes one subscriber, so each lists the kernels in a
process of its own."""

import json
import sys

import torch


def make():
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.randn(1024, 512, device="cuda")
    b = torch.randn(512, 2048, device="cuda")
    return a, b


def step(a, b):
    c = a @ b
    c = torch.relu(c)
    d = c + 1.0
    return d.sum()


def torch_profiler_kernels():
    a, b = make()
    step(a, b)  # warm-up: cuBLAS picks its kernel outside the profile
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        step(a, b)
        torch.cuda.synchronize()
    events = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    kernels = [e for e in events if "memcpy" not in e.name.lower() and "memset" not in e.name.lower()]
    kernels.sort(key=lambda e: e.time_range.start)
    return [e.name for e in kernels]


if __name__ == "__main__":
    json.dump(torch_profiler_kernels(), sys.stdout)
