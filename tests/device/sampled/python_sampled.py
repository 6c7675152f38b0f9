"""The sampled mode from Python against the CLI's on the same program (issue 36, item 2), on the GPU machine.

  python_sampled.py plain              the workload alone (what `opengpa profile --mode sampled` runs)
  python_sampled.py python OUT.json    the workload inside opengpa.profile(..., per_kernel=True, mode="sampled"),
                                       then again with TorchOps beside it; OUT.json gets the rows' totals per range
                                       path (and the second session's per op)

The workload: STEPS steps of PyTorch work inside NVTX ranges (torch.cuda.nvtx): "step/copy" copies 256 MiB
(a cudaMemcpyAsync: it takes its share of the samples but is no row), "step/mm" multiplies two fp16 4096x4096
matrices, "step/relu" applies relu to 256 MiB (DRAM-bound, beyond the 50 MiB L2), all on one stream,
unsynchronized between steps."""
import json
import sys
import time

import torch

STEPS = 20
INTERVAL_US = 20.0
METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum"]


def make():
    torch.manual_seed(0)
    source = torch.randn(64 << 20, device="cuda")  # 256 MiB of fp32
    sink = torch.empty_like(source)
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    torch.cuda.synchronize()
    return source, sink, a, b


def work(source, sink, a, b):
    for _ in range(STEPS):
        torch.cuda.nvtx.range_push("step")
        torch.cuda.nvtx.range_push("copy")
        sink.copy_(source)
        torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_push("mm")
        torch.mm(a, b)
        torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_push("relu")
        torch.relu(source)
        torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


def totals(results, ops=None):
    """Per range path: launches, each metric summed, and the share of rows marked overlapped or short."""
    by_path = results.aggregate(by="path")
    out = {"rows": len(results), "paths": {}}
    for row, path in enumerate(by_path.regions):
        out["paths"][path] = {"launches": by_path.counts[row],
                              **{m: float(by_path[m][row]) for m in METRICS + ["duration", "pm__coverage"]}}
    if ops is not None:
        per_op = ops.per_op()
        out["ops"] = {name: {"launches": per_op.counts[row], "dram__bytes_read.sum":
                             float(per_op["dram__bytes_read.sum"][row])} for row, name in enumerate(per_op.regions)}
        out["unattributed"] = ops.unattributed
    return out


def main():
    tensors = make()
    if sys.argv[1] == "plain":
        work(*tensors)
        return
    import opengpa
    from opengpa.torch_ops import TorchOps
    # Session 1: the sampled rows alone, against the CLI's. Session 2 (a second session in the same process):
    # with torch.profiler beside it, the rows attributed to PyTorch ops.
    start = time.time()
    with opengpa.profile(METRICS, per_kernel=True, mode="sampled", sampling_interval_us=INTERVAL_US) as p:
        work(*tensors)
    summary = totals(p.results)
    summary["seconds"] = time.time() - start
    summary["messages"] = p.messages[:4]
    summary["table"] = p.results.table(by="path", width=160)
    print(summary["table"])
    with opengpa.profile(METRICS, per_kernel=True, mode="sampled", sampling_interval_us=INTERVAL_US) as p, \
            TorchOps() as ops:
        work(*tensors)
    summary["with_torch_ops"] = totals(p.results, ops.attribute(p.results))
    print(ops.attribute(p.results).per_op().table(width=160))
    with open(sys.argv[2], "w") as out:
        json.dump(summary, out, indent=1)


if __name__ == "__main__":
    main()
