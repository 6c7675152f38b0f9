"""The Python package on a real GPU with PyTorch (tests/device/python/run.sh; not part of ctest).

Ground truth is the work itself: a matrix product executes M*N*K multiply-adds, an elementwise op reads
and writes its tensors once. Counter values come from libGPUPerfAPICUDA.so on the current CUDA context.
"""

import json
import os
import urllib.request

import numpy as np
import pytest
import torch

import opengpa
from opengpa import plots
from opengpa.torch_ops import op_regions

OUT = os.environ.get("OPENGPA_DEVICE_OUT", "/tmp/opengpa-python")
FFMA, FADD, FMUL = plots.FP32_COUNTERS
SUMMARY = {}


def setup_module():
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # the runtime's primary context, current on this thread
    torch.backends.cuda.matmul.allow_tf32 = False  # FP32 products on the FMA pipe: FFMA counts
    torch.backends.cudnn.allow_tf32 = False
    print(f"\ntorch {torch.__version__} on {torch.cuda.get_device_name()}")


def teardown_module():
    with open(os.path.join(OUT, "python_device_summary.json"), "w") as summary:
        json.dump(SUMMARY, summary, indent=1, default=float)
    print(json.dumps(SUMMARY, indent=1, default=float))


def test_the_live_context_lists_the_h100s_counters():
    with opengpa.open_context() as context:
        names = context.counter_names()
        print(context.device_name, len(names), "counters")
        assert "GH100" in context.device_name
        assert {"GPUTime", "FFMAThreadInstructions", "FetchSize", "WriteSize"} <= set(names)


@pytest.mark.parametrize("m, n, k", [(2048, 2048, 2048), (4096, 1024, 512)])
def test_an_fp32_matmuls_executed_flops_equal_two_m_n_k(m, n, k):
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    c = torch.empty(m, n, device="cuda")
    torch.matmul(a, b, out=c)  # warm-up: cuBLAS picks and loads its kernel outside the profile
    torch.cuda.synchronize()
    with opengpa.profile(["GPUTime", FFMA, FADD, FMUL]) as p:
        p.run(lambda: torch.matmul(a, b, out=c), name="matmul")
    row = p.results.region("matmul")
    executed = plots.flops(p.results)[0]
    print(f"fp32 {m}x{n}x{k}: {p.pass_count} passes, {row}, FLOPs {executed:.6g} vs 2MNK {2 * m * n * k}")
    SUMMARY[f"fp32_matmul_{m}x{n}x{k}"] = dict(row, flops=executed, expected=2 * m * n * k, passes=p.pass_count)
    assert row[FFMA] == m * n * k
    assert executed == pytest.approx(2 * m * n * k, rel=2e-3)  # + the epilogue's few adds or multiplies


def test_a_bf16_matmuls_tensor_ops_equal_two_m_n_k():
    m = n = k = 4096
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    counters = ["GPUTime", "sm__ops_path_tensor_src_bf16_dst_fp32.sum", "sm__inst_executed_pipe_tensor.sum"]
    with opengpa.profile(counters) as p:
        p.run(lambda: torch.matmul(a, b, out=c), name="matmul_bf16")
    row = p.results.region("matmul_bf16")
    ratio = row[counters[1]] / (2 * m * n * k)
    print(f"bf16 {m}^3: {row}; tensor ops / 2MNK = {ratio:.6f}; {2 * m * n * k / row['GPUTime'] / 1e3:.1f} TFLOP/s")
    SUMMARY["bf16_matmul_4096"] = dict(row, ops_over_2mnk=ratio)
    assert ratio == pytest.approx(1.0, rel=2e-3)


def test_an_elementwise_ops_dram_bytes_equal_its_tensors_sizes_within_two_percent():
    count = 1 << 30  # 4 GiB per float32 tensor: L2 (50 MB) holds at most 1.2% of the output dirty at the end
    x = torch.rand(count, device="cuda")
    y = torch.empty_like(x)
    torch.mul(x, 2.0, out=y)
    torch.cuda.synchronize()
    size = x.numel() * x.element_size()
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"]) as p:
        with opengpa.region("mul"):
            torch.mul(x, 2.0, out=y)
    row = p.results.region("mul")
    read, written = row["FetchSize"] * 1024, row["WriteSize"] * 1024
    print(f"elementwise over {size} B: read {read:.0f} ({read / size:.4f}), wrote {written:.0f} "
          f"({written / size:.4f}), {(read + written) / row['GPUTime']:.1f} GB/s")
    SUMMARY["elementwise_mul_4GiB"] = dict(row, tensor_bytes=size, read_ratio=read / size, write_ratio=written / size)
    assert read == pytest.approx(size, rel=0.02)
    assert written == pytest.approx(size, rel=0.02)
    del x, y


def test_a_cuda_graph_replay_and_a_side_stream_are_measured_like_direct_launches():
    count = 1 << 28  # 1 GiB per tensor
    x = torch.rand(count, device="cuda")
    y = torch.empty_like(x)
    size = x.numel() * x.element_size()
    side = torch.cuda.Stream()
    graph = torch.cuda.CUDAGraph()
    torch.mul(x, 2.0, out=y)
    with torch.cuda.graph(graph):
        torch.mul(x, 3.0, out=y)
    torch.cuda.synchronize()
    with opengpa.profile(["GPUTime", "FetchSize"]) as p:
        with opengpa.region("direct"):
            torch.mul(x, 2.0, out=y)
        with opengpa.region("graph replay"):
            graph.replay()
        with opengpa.region("side stream"):
            with torch.cuda.stream(side):
                torch.mul(x, 4.0, out=y)
            side.synchronize()  # a sample covers the context's work up to its end: wait for the side stream
    reads = {name: p.results.region(name)["FetchSize"] * 1024 / size for name in p.results.regions}
    times = {name: p.results.region(name)["GPUTime"] for name in p.results.regions}
    print(f"read / tensor size: {reads}; GPUTime ns: {times}")
    SUMMARY["graph_and_stream"] = {"read_ratio": reads, "gputime_ns": times}
    for name, ratio in reads.items():
        assert ratio == pytest.approx(1.0, rel=0.02), name


def measured_ceilings():
    """Peak DRAM bandwidth (a 2 GiB device copy, bytes read + written) and bf16 matrix FLOP/s, timed with
    CUDA events, median of 10."""
    def median_ms(work, repeats=10):
        work()
        torch.cuda.synchronize()
        times = []
        for _ in range(repeats):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            work()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return float(np.median(times))
    source = torch.empty(1 << 29, device="cuda")
    target = torch.empty_like(source)
    bandwidth = 2 * source.numel() * 4 / (median_ms(lambda: target.copy_(source)) * 1e-3)
    rates = {}
    for name, dtype in (("bf16 tensor", torch.bfloat16), ("fp32 FMA", torch.float32)):  # TF32 is off
        a = torch.randn(8192, 8192, device="cuda", dtype=dtype)
        rates[name] = 2 * 8192 ** 3 / (median_ms(lambda: a @ a) * 1e-3)
    return bandwidth, rates


def test_a_small_models_per_op_table_roofline_and_bars(tmp_path):
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 1024), torch.nn.LayerNorm(1024),
    ).cuda()
    x = torch.randn(8192, 1024, device="cuda")
    with torch.no_grad():
        model(x)
        torch.cuda.synchronize()

        def step():
            with op_regions(model):
                model(x)

        counters = list(plots.ROOFLINE_COUNTERS[:-2]) + ["FetchSize", "WriteSize", "SOL_SM", "SOL_Memory"]
        with opengpa.profile(counters) as p:
            p.run(step)
    table = p.results.aggregate().to_dataframe()
    table["FLOPs"] = plots.flops(p.results.aggregate())
    print(f"per-op table ({p.pass_count} passes):")
    print(table[["region", "count", "GPUTime", "FLOPs", "LocalVidMemBytes", "SOL_SM", "SOL_Memory"]].to_string())
    table.to_csv(os.path.join(OUT, "python_model_ops.csv"), index=False)
    regions = set(table["region"])
    assert {"0/aten.addmm.default", "1/aten.gelu.default", "2/aten.addmm.default"} <= regions, regions
    linear = table.set_index("region").loc["0/aten.addmm.default"]
    # The first Linear: 8192 x 4096 outputs of 1024 multiply-adds each.
    SUMMARY["model_linear0"] = dict(linear.drop("region", errors="ignore"))
    assert linear["FLOPs"] == pytest.approx(2 * 8192 * 4096 * 1024, rel=2e-3)
    bandwidth, flop_rates = measured_ceilings()
    SUMMARY["ceilings"] = {"dram_bytes_per_s": bandwidth, **{f"{k} FLOP/s": v for k, v in flop_rates.items()}}
    print(f"ceilings: {bandwidth / 1e12:.2f} TB/s, "
          + ", ".join(f"{k} {v / 1e12:.1f} TFLOP/s" for k, v in flop_rates.items()))
    # The plots themselves are docs/python.md's (samples/python/profile_mlp.py); here: they are written.
    plots.roofline(p.results.aggregate(), tmp_path / "roofline.png", flop_rates, bandwidth)
    plots.bars(p.results.aggregate(), tmp_path / "bars.png", "GPUTime")
    for name in ("roofline.png", "bars.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"


def test_the_monitor_iterates_records_and_serves_prometheus():
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    with opengpa.Monitor(["gpu_utilization_percent", "power_watts", "sm_clock_mhz"], interval_ms=100) as monitor:
        port = monitor.serve_metrics("127.0.0.1:0")
        for _ in range(200):
            a @ a
        records = list(monitor.records(seconds=1.0))
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    print(f"{len(records)} records; first {records[:3]}; metrics text {len(text)} bytes")
    print("\n".join(line for line in text.splitlines() if not line.startswith("#"))[:600])
    SUMMARY["monitor"] = {"records": len(records), "counters": sorted({r.counter for r in records})}
    assert {r.counter for r in records} == {"gpu_utilization_percent", "power_watts", "sm_clock_mhz"}
    assert max(r.value for r in records if r.counter == "gpu_utilization_percent") > 0
    assert "power_watts" in text
