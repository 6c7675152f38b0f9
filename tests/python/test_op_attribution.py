"""Kernel rows attributed to the aten ops and nn.Modules that launched them (opengpa.op_attribution), without
a GPU or PyTorch: made-up CPU intervals and launches, torch.profiler's events as TorchOps reads them (stand-in
objects with _KinetoEvent's methods), and a training step recorded on the H100 (tests/python/data/h100_torch_ops:
the per-kernel profiler's pass streams and launch labels, and torch.profiler's events of the same step)."""

import json

import numpy as np
import pytest

import opengpa
from conftest import REPOSITORY
from opengpa import kernels, op_attribution, plots, torch_ops
from opengpa.counters import Counter
from opengpa.op_attribution import CpuEvent, attribute_launches
from test_kernels import FakeInProcessEntry, fake_entry  # noqa: F401 (a fixture)

MAIN, AUTOGRAD, OTHER = 100, 200, 300
FFMA = plots.FP32_COUNTERS[0]

# A forward on MAIN (Sequential > Linear "0" > aten::linear > aten::addmm, then ReLU "1"), a backward on
# AUTOGRAD (the addmm's node, sequence 7, running aten::mm), and an op of another thread at the same time.
EVENTS = [
    CpuEvent("Sequential", 1_000, 9_000, MAIN, "module"),
    CpuEvent("0", 1_100, 5_000, MAIN, "module"),
    CpuEvent("aten::linear", 1_200, 4_900, MAIN, "op"),
    CpuEvent("aten::t", 1_300, 1_400, MAIN, "op", sequence=6),
    CpuEvent("aten::addmm", 1_500, 4_800, MAIN, "op", shapes=((64,), (32, 128), (128, 64)), sequence=7),
    CpuEvent("1", 5_100, 8_000, MAIN, "module"),
    CpuEvent("aten::relu", 5_200, 7_900, MAIN, "op", sequence=8),
    CpuEvent("aten::fill_", 1_000, 9_000, OTHER, "op"),
    CpuEvent("autograd::engine::evaluate_function: AddmmBackward0", 20_000, 30_000, AUTOGRAD, "backward"),
    CpuEvent("AddmmBackward0", 20_100, 29_000, AUTOGRAD, "other", sequence=7),
    CpuEvent("aten::mm", 21_000, 25_000, AUTOGRAD, "op", shapes=((32, 64), (64, 128)), sequence=-1),
    CpuEvent("my annotation", 40_000, 50_000, MAIN, "other"),
]


def test_a_launch_belongs_to_the_innermost_op_and_module_of_its_own_thread():
    forward, relu = attribute_launches([(MAIN, 3_000), (MAIN, 6_000)], EVENTS)
    assert forward.op == "aten::addmm" and forward.ops == ("aten::linear", "aten::addmm")
    assert forward.module == "0" and forward.modules == ("Sequential", "0")
    assert forward.shapes == ((64,), (32, 128), (128, 64)) and not forward.backward
    assert relu.op == "aten::relu" and relu.modules == ("Sequential", "1")
    # The same instant on another thread is that thread's op, in no module.
    (other,) = attribute_launches([(OTHER, 3_000)], EVENTS)
    assert other.op == "aten::fill_" and other.module == ""


def test_a_backward_launch_takes_the_module_of_the_forward_op_that_made_its_node():
    (launch,) = attribute_launches([(AUTOGRAD, 22_000)], EVENTS)
    assert launch.backward and launch.op == "aten::mm" and launch.shapes == ((32, 64), (64, 128))
    assert launch.modules == ("Sequential", "0")


def test_a_launch_inside_no_op_is_left_unattributed_even_inside_an_annotation():
    outside, annotated, unknown_thread = attribute_launches([(MAIN, 500), (MAIN, 45_000), (999, 3_000)], EVENTS)
    for launch in (outside, annotated, unknown_thread):
        assert launch.op == "" and launch.module == "" and launch.ops == ()


def test_interval_edges_count_as_inside():
    start, end = attribute_launches([(MAIN, 1_500), (MAIN, 4_800)], EVENTS)
    assert start.op == "aten::addmm" and end.op == "aten::addmm"


def kernel_rows(launches, values, counters=("GPUTime", FFMA)):
    rows = [{"index": i, "kernel": f"kernel{i}", "grid": [1, 1, 1], "block": [32, 1, 1], "stream": 7,
             "context": 0x5000, "ranges": [], "region": "", "thread": thread, "host_ns": time}
            for i, (thread, time) in enumerate(launches)]
    usages = {"GPUTime": "nanoseconds"}
    columns = [Counter(index=i, name=name, group="", description="", data_type="float64",
                       usage=usages.get(name, "")) for i, name in enumerate(counters)]
    return kernels.KernelResults(rows, columns, np.array(values, dtype=np.float64))


LAUNCHES = [(MAIN, 3_000), (MAIN, 3_500), (MAIN, 6_000), (AUTOGRAD, 22_000), (MAIN, 500)]
VALUES = [[100, 1000], [50, 10], [20, 0], [200, 2000], [5, 0]]


def test_the_per_op_table_sums_each_ops_kernels():
    table = op_attribution.attribute(kernel_rows(LAUNCHES, VALUES), EVENTS)
    assert table.ops == ["aten::addmm", "aten::addmm", "aten::relu", "aten::mm", ""] and table.unattributed == 1
    per_op = table.per_op()
    assert per_op.regions == ["aten::addmm", "aten::relu", "aten::mm", "(no op)"]
    assert per_op["GPUTime"].tolist() == [150, 20, 200, 5] and per_op.counts == [2, 1, 1, 1]
    by_call_site = table.per_op(by="module_op")
    assert by_call_site.regions == ["0/aten::addmm", "1/aten::relu", "0/aten::mm", "/(no op)"]
    with pytest.raises(ValueError, match="module_op"):
        table.per_op(by="kernel")


def test_the_per_module_table_adds_up_to_the_steps_totals():
    results = kernel_rows(LAUNCHES, VALUES)
    table = op_attribution.attribute(results, EVENTS)
    modules = table.per_module()
    assert modules.regions == ["0", "1", "(no module)"]
    assert modules["GPUTime"].tolist() == [350, 20, 5]
    assert modules["GPUTime"].sum() == results["GPUTime"].sum() and modules[FFMA].sum() == results[FFMA].sum()
    outermost = table.per_module(depth=0)
    assert outermost.regions == ["Sequential", "(no module)"] and outermost["GPUTime"].tolist() == [370, 5]


def test_the_attributed_rows_as_a_dataframe():
    frame = op_attribution.attribute(kernel_rows(LAUNCHES, VALUES), EVENTS).to_dataframe()
    assert list(frame.columns[:7]) == ["index", "kernel", "op", "module", "shapes", "backward", "region"]
    assert frame["op"][0] == "aten::addmm" and frame["shapes"][0] == "[(64,), (32, 128), (128, 64)]"
    assert frame["backward"].tolist() == [False, False, False, True, False]


def test_rows_recorded_without_launch_times_are_refused():
    with pytest.raises(ValueError, match="no launch times"):
        op_attribution.attribute(kernel_rows([(None, None)], [[1, 1]]), EVENTS)


def test_events_survive_a_round_trip_through_a_file(tmp_path):
    op_attribution.save_events(EVENTS, tmp_path / "events.json")
    assert op_attribution.load_events(tmp_path / "events.json") == EVENTS


class KinetoEvent:
    """The methods of torch's _KinetoEvent that TorchOps reads."""

    def __init__(self, name, start, end, resource, thread=1, sequence=-1, shapes=(), annotation=False):
        self._values = (name, start, end, resource, thread, sequence, shapes, annotation)

    def name(self): return self._values[0]
    def start_ns(self): return self._values[1]
    def end_ns(self): return self._values[2]
    def device_resource_id(self): return self._values[3]
    def start_thread_id(self): return self._values[4]
    def sequence_nr(self): return self._values[5]
    def shapes(self): return [list(s) for s in self._values[6]]
    def is_user_annotation(self): return self._values[7]


REALTIME = 1_764_000_000_000_000_000
MONOTONIC = 30_000_000_000


def kineto_events(marker_start, resource=MAIN, offset=0):
    return [KinetoEvent("opengpa::clock", marker_start, marker_start + 100, resource, annotation=True),
            KinetoEvent("nn.Module: 0", offset + 1_000, offset + 5_000, resource, annotation=True),
            KinetoEvent("aten::addmm", offset + 1_500, offset + 4_800, resource, sequence=7,
                        shapes=((64,), (32, 128), (128, 64))),
            KinetoEvent("autograd::engine::evaluate_function: AddmmBackward0", offset + 20_000, offset + 30_000,
                        AUTOGRAD, thread=2, sequence=7),
            KinetoEvent("AddmmBackward0", offset + 20_100, offset + 29_000, AUTOGRAD, thread=2, sequence=7),
            KinetoEvent("aten::mm", offset + 21_000, offset + 25_000, AUTOGRAD, thread=2)]


def test_torch_profiler_events_become_cpu_events_on_the_os_threads_and_the_realtime_clock():
    messages = []
    events = torch_ops.events_from_kineto(kineto_events(REALTIME + 2_000, offset=REALTIME),
                                          (MAIN, REALTIME, MONOTONIC), messages)
    kinds = {e.name: (e.kind, e.thread, e.start_ns - REALTIME) for e in events}
    assert kinds == {"opengpa::clock": ("other", MAIN, 2_000), "0": ("module", MAIN, 1_000),
                     "aten::addmm": ("op", MAIN, 1_500),
                     "autograd::engine::evaluate_function: AddmmBackward0": ("backward", AUTOGRAD, 20_000),
                     "AddmmBackward0": ("other", AUTOGRAD, 20_100), "aten::mm": ("op", AUTOGRAD, 21_000)}
    assert next(e for e in events if e.name == "aten::addmm").shapes == ((64,), (32, 128), (128, 64))
    assert "OS thread id" in messages[0] and "CLOCK_REALTIME" in messages[1]
    (backward,) = attribute_launches([(AUTOGRAD, REALTIME + 22_000)], events)
    assert backward.op == "aten::mm" and backward.modules == ("0",)


def test_torch_profiler_events_on_the_monotonic_clock_are_shifted_onto_the_realtime_clock():
    messages = []
    events = torch_ops.events_from_kineto(kineto_events(MONOTONIC + 2_000, offset=MONOTONIC),
                                          (MAIN, REALTIME, MONOTONIC), messages)
    addmm = next(e for e in events if e.name == "aten::addmm")
    assert addmm.start_ns == REALTIME + 1_500 and "CLOCK_MONOTONIC" in messages[1]


def test_without_os_thread_ids_only_the_profiling_threads_events_are_placed():
    messages = []
    events = torch_ops.events_from_kineto(kineto_events(REALTIME, resource=0, offset=REALTIME),
                                          (MAIN, REALTIME, MONOTONIC), messages)
    threads = {e.name: e.thread for e in events}
    assert threads["aten::addmm"] == MAIN and threads["aten::mm"] == -2
    assert "only the profiling thread's launches are attributed" in messages[0]


def test_torch_ops_needs_a_running_per_kernel_profile():
    torch = pytest.importorskip("torch")  # noqa: F841 (CI has no PyTorch; the H100 run checks the rest)
    with pytest.raises(opengpa.OpenGpaError, match="per_kernel=True"):
        with torch_ops.TorchOps():
            pass


def test_a_profile_calls_back_once_its_first_pass_holds_cupti(fake_entry):  # noqa: F811
    started = []
    with opengpa.profile(["FetchSize", "GPUTime"], per_kernel=True) as p:
        p._after_start.append(lambda: started.append(list(fake_entry.started)))  # what TorchOps registers
        p.run(lambda: fake_entry.launch("gemm"))
    assert started == [[0]]  # after pass 0 started, before its step ran; not again for pass 1


def test_launch_threads_and_times_reach_the_kernel_rows():
    document = {"counters": [{"name": "GPUTime", "usage": "nanoseconds"}], "device": "H100",
                "samples": [{"index": 0, "kernel": "k", "grid": [1, 1, 1], "block": [1, 1, 1], "queue": 7,
                             "values": {"GPUTime": 5}}]}
    labels = [{"index": 0, "context": "0x5000", "ranges": [], "thread": MAIN, "host_ns": REALTIME}]
    results = kernels.results_from_profile(document, labels)
    assert results.threads == [MAIN] and results.launch_times_ns == [REALTIME]


def recorded_training_step(tmp_path):
    """tests/device/python/test_torch_ops_device.py's training step (Linear 512->1024, ReLU, Linear 1024->256 on a
    2048 x 512 batch, loss (y^2).mean(), backward) recorded on the H100: two passes of application replay."""
    recorded = REPOSITORY / "tests" / "python" / "data" / "h100_torch_ops"
    document = kernels.join_streams([recorded / "pass0.jsonl", recorded / "pass1.jsonl"], tmp_path / "joined.json")
    with open(recorded / "pass0.launches.json") as labels:
        results = kernels.results_from_profile(document, json.load(labels))
    return results, op_attribution.load_events(recorded / "events.json")


def test_a_training_step_recorded_on_the_h100_reads_as_ops_forward_and_backward(tmp_path):
    results, events = recorded_training_step(tmp_path)
    table = op_attribution.attribute(results, events)
    assert table.unattributed == 0 and len(set(results.threads)) == 2  # the Python thread and autograd's
    assert table.ops == ["aten::addmm", "aten::clamp_min", "aten::addmm", "aten::pow", "aten::mean", "aten::fill_",
                         "aten::div", "aten::mul", "aten::mul", "aten::mm", "aten::mm", "aten::mm", "aten::sum",
                         "aten::threshold_backward", "aten::mm", "aten::mm", "aten::sum"]
    # The loss and its first gradients run outside the model; backward kernels take their forward op's module.
    assert table.modules == ["0", "1", "2", "", "", "", "", "", "", "2", "2", "2", "2", "1", "0", "0", "0"]
    assert [a.backward for a in table.attributions] == [False] * 6 + [True] * 11


def test_each_recorded_product_executes_m_n_k_ffmas_from_its_own_recorded_shapes(tmp_path):
    results, events = recorded_training_step(tmp_path)
    table = op_attribution.attribute(results, events)
    calls = {}
    for attribution, ffma in zip(table.attributions, results[FFMA]):
        if attribution.op in ("aten::mm", "aten::addmm"):
            call = calls.setdefault(attribution.call, [attribution.op, attribution.shapes, 0])
            call[2] += ffma
    extra = []
    for op, shapes, ffma in calls.values():
        a, b = (shapes[0], shapes[1]) if op == "aten::mm" else (shapes[1], shapes[2])
        m, n, k = a[0], b[1], a[1]
        extra.append((ffma - m * n * k) / (m * n))
    # cuBLAS's sm80_xmma kernels run one FFMA more per output (their epilogue); the split-K cutlass ones none.
    assert extra == [1, 1, 1, 0, 0]


def test_the_recorded_steps_per_module_table_adds_up_to_its_totals(tmp_path):
    results, events = recorded_training_step(tmp_path)
    table = op_attribution.attribute(results, events)
    modules = table.per_module()
    assert modules.regions == ["0", "1", "2", "(no module)"] and modules.counts == [4, 2, 5, 6]
    for counter in ("GPUTime", "LocalVidMemBytes", FFMA):
        assert modules[counter].sum() == pytest.approx(results[counter].sum(), rel=1e-12)
    per_op = table.per_op(by="module_op")
    assert per_op.regions[:3] == ["0/aten::addmm", "1/aten::clamp_min", "2/aten::addmm"]
    assert per_op["GPUTime"].sum() == pytest.approx(results["GPUTime"].sum(), rel=1e-12)
