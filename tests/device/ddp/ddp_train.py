"""A small DDP training for tests/device/ddp: two ranks under torchrun, NCCL, a few steps of a two-layer MLP.

Each step is an NVTX range "step" (for --range-mode nvtx). `--slow-rank R --extra-microbatches K` makes rank R do
K more forward/backward passes per step (under no_sync, so the all-reduces stay one per step and every rank ends
with the same parameters): the same kernels, more of them, as a rank with more work than its peers.
At the end each rank prints one line: its rank, pid, GPU, micro-batches, last loss and whether its parameters equal
every other rank's (DDP's result is the same under the profiler as without).
"""
import argparse
import contextlib
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--slow-rank", type=int, default=-1)
    parser.add_argument("--extra-microbatches", type=int, default=3)
    args = parser.parse_args()
    rank = int(os.environ["RANK"])
    local = int(os.environ["LOCAL_RANK"])
    world = int(os.environ["WORLD_SIZE"])
    torch.cuda.set_device(local)
    device = torch.device("cuda", local)
    dist.init_process_group("nccl", device_id=device)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 512)).to(device)
    ddp = DistributedDataParallel(model, device_ids=[local])
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
    generator = torch.Generator(device=device).manual_seed(rank)
    x = torch.randn(256, 512, device=device, generator=generator)
    y = torch.randn(256, 512, device=device, generator=generator)
    micro = 1 + (args.extra_microbatches if rank == args.slow_rank else 0)
    loss = torch.zeros((), device=device)
    for _ in range(args.steps):
        torch.cuda.nvtx.range_push("step")
        optimizer.zero_grad()
        for m in range(micro):
            with ddp.no_sync() if m < micro - 1 else contextlib.nullcontext():
                loss = torch.nn.functional.mse_loss(ddp(x), y)
                loss.backward()
        optimizer.step()
        torch.cuda.nvtx.range_pop()
    flat = torch.cat([p.detach().flatten() for p in model.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(world)]
    dist.all_gather(gathered, flat)
    same = all(torch.equal(gathered[0], g) for g in gathered)
    torch.cuda.synchronize()
    print(f"rank {rank} pid {os.getpid()} gpu {local} microbatches {micro} loss {loss.item():.6f} "
          f"params_equal {same}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
