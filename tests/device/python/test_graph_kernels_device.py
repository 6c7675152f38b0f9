"""CUDA Graph replays in per-kernel profiles (opengpa.profile(..., per_kernel=True)) on a real GPU, in a process
of its own (issue 12 and 19). CUPTI samples a graph launch as a whole (docs/python.md): a graph whose one piece
of GPU work is a kernel is that kernel's row, any other graph one row of the whole replay. Ground truth: the
same product launched eagerly in the same profile, and the work itself (2*M*N*K tensor FLOPs). SASS-instrumented
counts (FFMA) read 0 inside graphs on the H100 and are unavailable (NaN) in graph rows."""

import json
import math
import os

import torch

import opengpa

OUT = os.environ.get("OPENGPA_DEVICE_OUT", "/tmp/opengpa-python")
FFMA = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
INST = "smsp__inst_executed.sum"
TENSOR_BF16 = "sm__ops_path_tensor_src_bf16_dst_fp32.sum"
SUMMARY = {}


def setup_module():
    torch.zeros(1, device="cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"\ntorch {torch.__version__} on {torch.cuda.get_device_name()}")


def teardown_module():
    with open(os.path.join(OUT, "graph_kernels_summary.json"), "w") as summary:
        json.dump(SUMMARY, summary, indent=1, default=str)


def capture(work):
    """A torch.cuda.CUDAGraph of `work`, warmed up on a side stream first as PyTorch asks."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        work()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        work()
    return graph


def split(rows):
    """The rows of the eager launches (region "eager") and of the graph replay (region "replay")."""
    eager_rows = [i for i, region in enumerate(rows.regions) if region == "eager"]
    graph_rows = [i for i, region in enumerate(rows.regions) if region == "replay"]
    assert all(rows.graphs[i] is None for i in eager_rows) and all(rows.graphs[i] is not None for i in graph_rows)
    return eager_rows, graph_rows


def eager_then_replay(work, graph):
    with opengpa.region("eager"):
        work()
    with opengpa.region("replay"):
        graph.replay()
    torch.cuda.synchronize()


def show(name, p):
    frame = p.results.to_dataframe().drop(columns=["context", "ranges"])
    print(f"{name}: {p.replay} replay, {p.pass_count} pass(es)\n{frame.to_string()}")
    SUMMARY[name] = {"kernels": p.results.kernels, "graphs": p.results.graphs, "grids": p.results.grids,
                     "values": {c.name: p.results[c.name].tolist() for c in p.results.counters}}


def test_a_graph_replay_of_a_product_is_its_kernels_row_with_the_eager_runs_ffma_count():
    m = n = k = 2048
    a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
    c, c_graph = torch.empty(m, n, device="cuda"), torch.empty(m, n, device="cuda")
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()

    def step():  # FFMA and GPU time take two passes: the step runs once per pass
        graph = capture(lambda: torch.matmul(a, b, out=c_graph))  # instantiated inside: its nodes are read
        eager_then_replay(lambda: torch.matmul(a, b, out=c), graph)

    with opengpa.profile([FFMA, INST], per_kernel=True) as p:
        p.run(step)
    show("fp32_graph", p)
    rows = p.results
    eager, replayed = split(rows)
    assert len(replayed) == 1, rows.kernels
    assert sum(rows[FFMA][i] for i in eager) == m * n * k
    assert math.isnan(rows[FFMA][replayed[0]])  # not counted inside graphs: unavailable, never a wrong 0
    assert rows[INST][replayed[0]] == sum(rows[INST][i] for i in eager)
    # On the H100 the product is one cuBLAS kernel and the graph holds nothing else: the row is that kernel,
    # named and shaped as eagerly (checked 2026-11-24).
    assert len(eager) == 1
    assert rows.kernels[replayed[0]] == rows.kernels[eager[0]]
    assert rows.grids[replayed[0]] == rows.grids[eager[0]]
    assert torch.allclose(c, c_graph)


def test_a_bf16_product_replayed_from_a_graph_executes_two_m_n_k_tensor_flops():
    m = n = k = 4096
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    with opengpa.profile([TENSOR_BF16, "gpu__time_duration.sum"], per_kernel=True) as p:
        graph = capture(lambda: torch.matmul(a, b, out=c))
        eager_then_replay(lambda: torch.matmul(a, b, out=c), graph)
    show("bf16_graph", p)
    rows = p.results
    eager, replayed = split(rows)
    assert len(replayed) == 1  # on the H100: "CUDA graph: 1 kernel node (nvjet_...) + 1 other node"
    assert rows[TENSOR_BF16][replayed[0]] == 2 * m * n * k
    assert sum(rows[TENSOR_BF16][i] for i in eager) == 2 * m * n * k


def test_a_graph_of_several_kernels_is_one_row_holding_their_sum():
    m = n = k = 2048
    a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
    c, d = torch.empty(m, n, device="cuda"), torch.empty(m, n, device="cuda")

    def work():
        torch.matmul(a, b, out=c)
        torch.add(c, 1.0, out=d)

    work()
    torch.cuda.synchronize()
    with opengpa.profile([INST], per_kernel=True) as p:
        p.run(lambda: eager_then_replay(work, capture(work)))
    show("two_kernel_graph", p)
    rows = p.results
    eager, replayed = split(rows)
    assert len(replayed) == 1
    assert rows.kernels[replayed[0]].startswith(f"CUDA graph: {len(eager)} kernel nodes ("), rows.kernels[replayed[0]]
    assert rows[INST][replayed[0]] == sum(rows[INST][i] for i in eager)


def test_a_graph_captured_before_the_profile_is_replayed_through_several_passes():
    m = n = k = 2048
    a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
    c = torch.empty(m, n, device="cuda")
    graph = capture(lambda: torch.matmul(a, b, out=c))  # before the profile, as PyTorch programs do
    torch.cuda.synchronize()
    with opengpa.profile([FFMA, "GPUTime"], per_kernel=True) as p:  # two passes: the step runs twice
        p.run(graph.replay, name="replay")
    show("graph_before_profile", p)
    rows = p.results
    assert p.replay == "application" and p.pass_count == 2
    assert rows.kernels == ["CUDA graph: nodes not known (instantiated before profiling began)"]
    assert rows.graphs[0] is not None
    assert math.isnan(rows[FFMA][0])
    assert rows["GPUTime"][0] > 0
