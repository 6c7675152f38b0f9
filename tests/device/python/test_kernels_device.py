"""One row per kernel launch from Python on a real GPU (opengpa.profile(..., per_kernel=True)), in a process of
its own: the per-kernel profiler subscribes to CUPTI, which takes one subscriber per process.

Ground truth is the work itself (a product executes M*N*K multiply-adds, an elementwise op reads and writes
its tensors once) and torch.profiler's list of the kernels the same step launches."""

import json
import os
import subprocess
import sys

import pytest
import torch

import opengpa
from opengpa import plots
from opengpa.torch_ops import op_regions

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kernel_workload  # noqa: E402

OUT = os.environ.get("OPENGPA_DEVICE_OUT", "/tmp/opengpa-python")
FFMA, FADD, FMUL = plots.FP32_COUNTERS
SUMMARY = {}


def setup_module():
    torch.zeros(1, device="cuda")  # PyTorch's context exists before any profile, as in real programs
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"\ntorch {torch.__version__} on {torch.cuda.get_device_name()}")


def teardown_module():
    with open(os.path.join(OUT, "kernels_summary.json"), "w") as summary:
        json.dump(SUMMARY, summary, indent=1, default=str)


def test_one_row_per_kernel_launch_named_as_torch_profiler_names_them():
    expected = json.loads(subprocess.run([sys.executable, os.path.join(HERE, "kernel_workload.py")],
                                         check=True, capture_output=True, text=True).stdout)
    a, b = kernel_workload.make()
    kernel_workload.step(a, b)
    torch.cuda.synchronize()
    with opengpa.profile(["GPUTime", "FetchSize"], per_kernel=True) as p:
        kernel_workload.step(a, b)
    rows = p.results
    print(f"{p.replay} replay, {p.pass_count} pass(es)")
    print(rows.to_dataframe()[["index", "kernel", "grid", "block", "stream", "context", "GPUTime",
                               "FetchSize"]].to_string())
    print("torch.profiler:", expected)
    SUMMARY["kernel_list"] = {"opengpa": rows.kernels, "torch.profiler": expected,
                              "grids": rows.grids, "blocks": rows.blocks, "streams": rows.streams}
    assert rows.kernels == expected
    # With the L2 flushed before each launch, relu and the add read their 1024 x 2048 float input from DRAM.
    assert rows["FetchSize"][1] == pytest.approx(1024 * 2048 * 4 / 1024, rel=0.02)
    assert rows["FetchSize"][2] == pytest.approx(1024 * 2048 * 4 / 1024, rel=0.02)
    assert all(g != (0, 0, 0) for g in rows.grids) and all(t > 0 for t in rows["GPUTime"])
    assert len(set(rows.contexts)) == 1 and rows.contexts[0] != 0


def test_a_matmuls_kernel_rows_execute_two_m_n_k_flops():
    m, n, k = 2048, 2048, 2048
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    c = torch.empty(m, n, device="cuda")
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    folder = os.path.join(OUT, "matmul_streams")
    with opengpa.profile(["GPUTime", "FFMAThreadInstructions", FFMA, FADD, FMUL], per_kernel=True,
                         stream_folder=folder) as p:
        p.run(lambda: torch.matmul(a, b, out=c), name="matmul")
    rows = p.results
    frame = rows.to_dataframe()
    print(f"{p.replay} replay, {p.pass_count} passes\n" + frame.drop(columns=["context"]).to_string())
    executed = plots.flops(rows).sum()
    SUMMARY["fp32_matmul_2048"] = {"rows": len(rows), "passes": p.pass_count, "replay": p.replay,
                                   "kernels": rows.kernels, "ffma": rows[FFMA].tolist(),
                                   "ffma_gpa": rows["FFMAThreadInstructions"].tolist(), "flops": executed,
                                   "regions": rows.regions}
    assert p.replay == "application" and p.pass_count > 1
    assert rows.regions == ["matmul"] * len(rows)
    assert rows[FFMA].sum() == m * n * k
    assert rows["FFMAThreadInstructions"].sum() == m * n * k  # the GPA counter, evaluated by the library
    assert executed == pytest.approx(2 * m * n * k, rel=2e-3)


def test_an_elementwise_kernels_dram_bytes_equal_its_tensors_sizes_within_two_percent():
    x = torch.rand(1 << 30, device="cuda")  # 4 GiB: L2 holds at most 1.2% of the output dirty at the end
    y = torch.empty_like(x)
    torch.mul(x, 2.0, out=y)
    torch.cuda.synchronize()
    size = x.numel() * x.element_size()
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"], per_kernel=True) as p:
        torch.mul(x, 2.0, out=y)
    rows = p.results
    # PyTorch splits an op over more than 2^31 bytes into launches that index with 32 bits: sum them.
    assert len(rows) >= 1 and all("MulFunctor" in name for name in rows.kernels), rows.kernels
    read, written = rows["FetchSize"].sum() * 1024, rows["WriteSize"].sum() * 1024
    print(f"{len(rows)} launches of {rows.kernels[0]}: read {read / size:.5f}, wrote {written / size:.5f} of {size} B, "
          f"{rows['GPUTime'].sum():.0f} ns")
    SUMMARY["elementwise_4GiB"] = {"kernels": rows.kernels, "grids": rows.grids, "read_ratio": read / size,
                                   "write_ratio": written / size, "gputime_ns": rows["GPUTime"].tolist(),
                                   "read_kb": rows["FetchSize"].tolist(), "write_kb": rows["WriteSize"].tolist()}
    assert read == pytest.approx(size, rel=0.02)
    assert written == pytest.approx(size, rel=0.02)
    del x, y


def test_a_small_models_per_op_table_from_kernel_rows_inside_an_nvtx_range():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 1024),
                                torch.nn.LayerNorm(1024)).cuda()
    x = torch.randn(8192, 1024, device="cuda")

    def step():
        torch.cuda.nvtx.range_push("mlp")
        with torch.no_grad(), op_regions(model):
            model(x)
        torch.cuda.nvtx.range_pop()

    with torch.no_grad():
        model(x)
    torch.cuda.synchronize()
    counters = ["GPUTime", "LocalVidMemBytes", "SOL_SM", "SOL_Memory", *plots.FP32_COUNTERS]
    # SOL_SM needs several passes alone: kernel replay, asked for (auto refuses such a set).
    with opengpa.profile(counters, per_kernel=True, replay="kernel") as p:
        p.run(step)
    rows = p.results
    print(f"{p.replay} replay, {p.pass_count} passes; {len(rows)} kernel rows")
    print(rows.to_dataframe()[["kernel", "ranges", "grid", "GPUTime", "LocalVidMemBytes"]].to_string())
    ops = rows.aggregate()
    table = ops.to_dataframe()
    table["FLOPs"] = plots.flops(ops)
    table["TFLOP/s"] = table["FLOPs"] / table["GPUTime"] / 1e3
    print(table[["region", "count", "GPUTime", "FLOPs", "TFLOP/s", "LocalVidMemBytes", "SOL_SM",
                 "SOL_Memory"]].to_string())
    table.to_csv(os.path.join(OUT, "kernels_model_ops.csv"), index=False)
    plots.bars(ops, os.path.join(OUT, "python_kernels_ops.png"), "GPUTime")
    SUMMARY["model"] = {"passes": p.pass_count, "ranges": [list(r) for r in rows.ranges],
                        "kernels": rows.kernels, "ops": table.drop(columns=["region"]).to_dict("list"),
                        "op_names": list(table["region"])}
    assert {"0/aten.addmm.default", "1/aten.gelu.default", "2/aten.addmm.default",
            "3/aten.native_layer_norm.default"} <= set(ops.regions), ops.regions
    assert all(r[0] == "mlp" for r in rows.ranges), rows.ranges  # the NVTX range around the step
    linear = table.set_index("region").loc["0/aten.addmm.default"]
    assert linear["FLOPs"] == pytest.approx(2 * 8192 * 4096 * 1024, rel=2e-3)


def test_a_triton_kernel_is_a_row_of_its_own():
    triton = pytest.importorskip("triton")
    import triton.language as tl

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
                 mask=mask)

    n = 1 << 26
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    add_kernel[grid](x, y, out, n, BLOCK=1024)  # compiled outside the profile
    torch.cuda.synchronize()
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"], per_kernel=True) as p:
        with opengpa.region("triton add"):
            add_kernel[grid](x, y, out, n, BLOCK=1024)
    rows = p.results
    print(rows.to_dataframe().drop(columns=["context"]).to_string())
    SUMMARY["triton"] = {"kernels": rows.kernels, "grids": rows.grids, "read_kb": rows["FetchSize"].tolist()}
    assert rows.kernels == ["add_kernel"] and rows.grids == [(n // 1024, 1, 1)]
    assert rows.regions == ["triton add"]
    assert rows["FetchSize"][0] * 1024 == pytest.approx(2 * n * 4, rel=0.02)


def test_a_region_profile_still_works_after_kernel_profiles_in_the_same_process():
    x = torch.rand(1 << 28, device="cuda")
    y = torch.empty_like(x)
    with opengpa.profile(["GPUTime", "FetchSize"]) as p:
        with opengpa.region("mul"):
            torch.mul(x, 2.0, out=y)
    read = p.results.region("mul")["FetchSize"] * 1024 / (x.numel() * 4)
    SUMMARY["region_after_kernels"] = {"read_ratio": read}
    assert read == pytest.approx(1.0, rel=0.02)
