"""What a program's start costs under `opengpa profile --mode sampled` (issue 36), step by step: Python's start,
torch's import, CUDA's initialisation (where CUPTI's injection, and so the profiler, starts), the first kernel and
the exit. Prints each step's Unix time on one "phases:" line, as gpt2_generate.py does; start_cost.py runs it
unprofiled, with the library injected alone and sampled, alternated."""
import time

started = time.time()
import sys  # noqa: E402

import torch  # noqa: E402

imported = time.time()
torch.cuda.init()
initialised = time.time()
x = torch.ones(1 << 20, device="cuda")
torch.cuda.synchronize()
first = time.time()
y = (x * 2).sum().item()
done = time.time()
print(f"phases: started {started:.6f}, imported {imported:.6f}, CUDA initialised {initialised:.6f}, "
      f"first kernel done {first:.6f}, result {done:.6f}", file=sys.stderr)
