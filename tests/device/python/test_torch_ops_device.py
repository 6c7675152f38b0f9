"""Kernel rows attributed to aten ops and nn.Modules through torch.profiler (CPU activities only) beside the
per-kernel profiler, on a real GPU, in a process of its own (one CUPTI subscriber per process).

Ground truth: every aten::mm / aten::addmm executes M*N*K FP32 multiply-adds (TF32 off), read from the
shapes torch.profiler recorded for that very op; the per-module table adds up to the step's totals. The
training step's streams and torch.profiler events are saved for tests/python/data/h100_torch_ops."""

import json
import os
import shutil

import pytest
import torch

import opengpa
from opengpa import op_attribution, plots
from opengpa.torch_ops import TorchOps

OUT = os.environ.get("OPENGPA_DEVICE_OUT", "/tmp/opengpa-python")
FFMA, FADD, FMUL = plots.FP32_COUNTERS
SUMMARY = {}


def setup_module():
    torch.zeros(1, device="cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"\ntorch {torch.__version__} on {torch.cuda.get_device_name()}")


def teardown_module():
    with open(os.path.join(OUT, "torch_ops_summary.json"), "w") as summary:
        json.dump(SUMMARY, summary, indent=1, default=str)


def mnk(op, shapes):
    """M, N, K of a product from torch.profiler's input shapes: mm(a[M,K], b[K,N]); addmm(bias, a, b)."""
    a, b = (shapes[0], shapes[1]) if op == "aten::mm" else (shapes[1], shapes[2])
    return a[0], b[1], a[1]


def check_products(table, rows):
    """Per call of a product op: its kernel rows' FFMAs, and M, N, K from the op's own recorded shapes. The
    product is M*N*K FFMAs; cuBLAS's sm80_xmma kernels add one FFMA per output in their epilogue (alpha and
    beta), the cutlass SIMT ones none (split-K's reduction kernel runs FADDs)."""
    calls = {}
    for attribution, ffma, kernel in zip(table.attributions, rows[FFMA], rows.kernels):
        if attribution.op in ("aten::mm", "aten::addmm"):
            call = calls.setdefault(attribution.call, {
                "op": attribution.op, "module": attribution.module, "backward": attribution.backward,
                "shapes": attribution.shapes, "ffma": 0, "kernels": []})
            call["ffma"] += int(ffma)
            call["kernels"].append(kernel[:48])
    for call in calls.values():
        m, n, k = mnk(call["op"], call["shapes"])
        call["mnk"], call["epilogue"] = m * n * k, (call["ffma"] - m * n * k) / (m * n)
    return list(calls.values())


def print_tables(table):
    frame = table.to_dataframe()
    print(frame[["kernel", "op", "module", "backward", "shapes", "GPUTime", FFMA]].to_string(max_colwidth=50))
    for title, aggregated in (("per op", table.per_op(by="module_op")), ("per module", table.per_module())):
        result = aggregated.to_dataframe()
        result["FLOPs"] = plots.flops(aggregated)
        result["TFLOP/s"] = result["FLOPs"] / result["GPUTime"] / 1e3
        print(f"{title}:\n" + result.drop(columns=[FFMA, FADD, FMUL]).to_string())


def test_a_models_forward_kernels_are_attributed_to_their_aten_ops_and_modules():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 1024),
                                torch.nn.LayerNorm(1024)).cuda()
    x = torch.randn(8192, 1024, device="cuda")

    def step():
        with torch.no_grad():
            model(x)

    step()
    torch.cuda.synchronize()
    counters = ["GPUTime", "LocalVidMemBytes", "SOL_SM", "SOL_Memory", *plots.FP32_COUNTERS]
    # SOL_SM needs several passes alone: kernel replay, asked for (auto refuses such a set).
    with opengpa.profile(counters, per_kernel=True, replay="kernel") as p, TorchOps(model) as ops:
        p.run(step)
    table = ops.attribute(p.results)
    print(f"{p.replay} replay, {p.pass_count} passes; {len(p.results)} rows; {ops.messages}")
    print_tables(table)
    products = check_products(table, p.results)
    print("products:", products)
    per_op = table.per_op(by="module_op")
    op_frame = per_op.to_dataframe()
    op_frame["FLOPs"] = plots.flops(per_op)
    op_frame.to_csv(os.path.join(OUT, "torch_ops_mlp_per_op.csv"), index=False)
    plots.bars(per_op, os.path.join(OUT, "torch_ops_mlp_bars.png"), "GPUTime")
    SUMMARY["mlp"] = {"replay": p.replay, "passes": p.pass_count, "messages": ops.messages,
                      "ops": table.ops, "modules": table.modules, "products": products,
                      "per_op": op_frame.to_dict("list"), "events": len(ops.events)}
    assert table.unattributed == 0, table.to_dataframe()[["kernel", "op"]]
    assert table.ops == ["aten::addmm", "aten::gelu", "aten::addmm", "aten::native_layer_norm"], table.ops
    assert table.modules == ["0", "1", "2", "3"], table.modules
    assert len(products) == 2 and all(p_["epilogue"] in (0, 1) for p_ in products), products
    assert products[0]["mnk"] == 8192 * 4096 * 1024


def test_a_training_steps_kernels_forward_and_backward_per_op_and_per_module():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 256)).cuda()
    x = torch.randn(2048, 512, device="cuda")

    def step():
        model(x).square().mean().backward()

    def setup():
        model.zero_grad(set_to_none=True)  # every pass creates the gradients afresh: the same launches

    setup()
    step()
    torch.cuda.synchronize()
    folder = os.path.join(OUT, "torch_ops_training")
    shutil.rmtree(folder, ignore_errors=True)
    counters = ["GPUTime", "LocalVidMemBytes", *plots.FP32_COUNTERS]
    with opengpa.profile(counters, per_kernel=True, stream_folder=folder) as p, TorchOps(model) as ops:
        p.run(step, setup=setup)
    rows = p.results
    table = ops.attribute(rows)
    op_attribution.save_events(ops.events, os.path.join(folder, "events.json"))
    print(f"{p.replay} replay, {p.pass_count} passes; {len(rows)} rows, {len(ops.events)} events; {ops.messages}")
    print_tables(table)
    products = check_products(table, rows)
    print("products:", products)
    modules = table.per_module()
    SUMMARY["training"] = {"replay": p.replay, "passes": p.pass_count, "messages": ops.messages,
                           "ops": table.ops, "modules": table.modules,
                           "backward": [a.backward for a in table.attributions],
                           "threads": rows.threads, "products": products, "module_names": modules.regions,
                           "module_gputime": modules["GPUTime"].tolist(), "total_gputime": rows["GPUTime"].sum()}
    assert table.unattributed == 0, table.to_dataframe()[["kernel", "op", "backward"]]
    assert any(a.backward for a in table.attributions) and len(set(rows.threads)) == 2  # autograd's own thread
    # Forward: two addmm; backward: the weight gradients of both Linears and the input gradient of the second.
    assert len(products) == 5 and all(p_["epilogue"] in (0, 1) for p_ in products), products
    # Backward products run on autograd's thread, outside any module call: they take their forward op's module.
    assert sorted(p_["module"] for p_ in products if p_["backward"]) == ["0", "2", "2"], products
    for counter in ("GPUTime", "LocalVidMemBytes", FFMA):
        assert modules[counter].sum() == pytest.approx(rows[counter].sum(), rel=1e-12)
    assert table.per_op()[FFMA].sum() == rows[FFMA].sum()
