"""A GPT-2-style generation for the profiler's benchmarks: GPT-2 small's shape (transformers' GPT2Config
defaults) with random weights (no download), fp16 on the GPU, greedy `generate` of NEW_TOKENS tokens after one
warm-up. Prints the time of the measured generation, and on a line of its own when each phase ended (Unix time)
and the process's CPU time then: where a profiler's cost falls. A few thousand kernel launches for 20 tokens.
  gpt2_generate.py [NEW_TOKENS] [BATCH] [PROMPT_TOKENS]   (default 20 tokens, batch 1, a 32-token prompt)"""
import sys
import time

import torch
from transformers import GPT2Config, GPT2LMHeadModel

phases = [("imported", time.process_time(), time.time())]
torch.manual_seed(0)
new_tokens = int(sys.argv[1]) if len(sys.argv) > 1 else 20
model = GPT2LMHeadModel(GPT2Config())
phases.append(("built", time.process_time(), time.time()))
model = model.half().cuda().eval()
phases.append(("on the GPU", time.process_time(), time.time()))
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1
prompt_tokens = int(sys.argv[3]) if len(sys.argv) > 3 else 32
prompt = torch.randint(0, 50257, (batch, prompt_tokens), device="cuda")
with torch.no_grad():
    model.generate(prompt, max_new_tokens=2, min_new_tokens=2, do_sample=False, pad_token_id=0)
    torch.cuda.synchronize()
    phases.append(("warmed up", time.process_time(), time.time()))
    start = time.perf_counter()
    out = model.generate(prompt, max_new_tokens=new_tokens, min_new_tokens=new_tokens, do_sample=False,
                         pad_token_id=0)
    torch.cuda.synchronize()
print(f"generated {out.shape[1] - prompt.shape[1]} tokens in {time.perf_counter() - start:.3f} s", file=sys.stderr)
phases.append(("generated", time.process_time(), time.time()))
print("phases: " + ", ".join(f"{name} {wall:.3f} (CPU {cpu:.2f} s)" for name, cpu, wall in phases), file=sys.stderr)
