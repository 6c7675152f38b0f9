"""A PyTorch CUDA graph (torch.cuda.CUDAGraph, which destroys its cudaGraph_t right after instantiating it)
replayed three times beside the same step run eagerly, for `opengpa profile --graph-profiling node`: the
replays' outputs must equal eager ones (the profiler replays the graph's nodes itself), and
check_torch_graph.py compares each replayed kernel node's sample with the eager launch of the same kernel."""
import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.manual_seed(0)
device = "cuda"
x = torch.randn(256, 1024, device=device)
w1 = torch.randn(1024, 1024, device=device) / 32
w2 = torch.randn(1024, 512, device=device) / 32


def step(inputs):
    return torch.relu(inputs @ w1) @ w2 + 1.0


static_x = x.clone()
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    for _ in range(2):
        step(static_x)
torch.cuda.current_stream().wait_stream(side)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    static_y = step(static_x)
torch.cuda.synchronize()
ok = True
for i in range(3):
    scaled = x * (i + 1)
    reference = step(scaled)  # the eager launches of this step: one sample per kernel
    static_x.copy_(scaled)
    graph.replay()
    torch.cuda.synchronize()
    same = torch.allclose(static_y, reference, rtol=1e-5, atol=1e-4)
    ok = ok and same
    difference = float((static_y - reference).abs().max())
    print(f"replay {i}: max |graph - eager| {difference:.3g} {'ok' if same else 'WRONG'}")
print("torch_graph results:", "ok" if ok else "WRONG")
