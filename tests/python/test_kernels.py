"""Per-kernel rows (opengpa.profile(..., per_kernel=True)) without a GPU: the in-process entry's refusals,
the join of recorded pass streams by the C library (the CLI's replay rules and counter engine), region
labels across passes, and the per-region / per-kernel tables."""

import ctypes
import json
import math
import pathlib

import numpy as np
import pytest

import opengpa
from conftest import REPOSITORY, catalog_counters, fill_as_the_library
from opengpa import kernels, plots

# The first entry of each name (catalogs/cuda.json lists some names again for older chips).
FORMULAS = {}
for name, group, formula in catalog_counters("cuda.json"):
    FORMULAS.setdefault(name, formula)


def header(measured, pass_index, passes=2):
    """A pass's stream header as the injection writes it: measured CUPTI metrics, the GPA counters asked
    for with their catalog formulas, application replay."""
    return {"type": "header", "api": "cuda",
            "counters": [{"name": name, "usage": "", "data_type": "float64"} for name in measured],
            "outputs": [{"name": name, "usage": usage, "data_type": "float64", "formula": FORMULAS[name]}
                        for name, usage in (("FetchSize", "kilobytes"), ("GPUTime", "nanoseconds"))],
            "constants": {}, "replay": "application", "pass": pass_index, "passes": passes}


# Two kernels, each launched as it would be by a step replayed once per pass. Pass 1 measures DRAM reads and
# the busiest SM's active cycles, pass 2 SM elapsed cycles and duration (GPUTime's formula needs all three of the
# last ones).
LAUNCHES = [("void gemm<float>(float*, int)", [64, 32, 1], [256, 1, 1]),
            ("elementwise_kernel", [1024, 1, 1], [128, 1, 1]),
            ("void gemm<float>(float*, int)", [64, 32, 1], [256, 1, 1])]
PASS_VALUES = [
    (["dram__bytes_read.sum", "sm__cycles_active.max"], [[2048 * 1024, 900], [4096 * 1024, 500], [1024 * 1024, 1000]]),
    (["sm__cycles_elapsed.avg", "gpu__time_duration.sum"], [[1000, 5000], [1000, 2000], [1000, 3000]]),
]


def write_pass(path, pass_index, launches=LAUNCHES, values=None):
    measured, rows = PASS_VALUES[pass_index]
    rows = values or rows
    lines = [header(measured, pass_index), {"type": "queue", "id": 7, "name": "stream 7", "device": "NVIDIA H100"}]
    for index, (launch, row) in enumerate(zip(launches, rows)):
        name, grid, block = launch[:3]
        extra = launch[3] if len(launch) > 3 else {}  # graph, graph_node, context
        lines.append({"type": "sample", "index": index, "name": name, "queue": 7, "grid": grid, "block": block,
                      "values": row, **extra})
    lines.append({"type": "end", "samples": len(launches)})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def launch_labels(*ranges):
    return [{"index": i, "context": "0x5000", "ranges": list(r)} for i, r in enumerate(ranges)]


def test_the_in_process_entry_refuses_to_start_without_a_gpu_and_says_why():
    library = kernels.load_library()
    options = kernels._Options(ctypes.sizeof(kernels._Options), b"GPUTime", b"auto", 0, 1, b"", b"/dev/null", 1)
    assert library.OpenGpaProfileStart(ctypes.byref(options)) == -4  # kOpenGpaProfileStatusErrorNoDriver
    assert b"no CUDA driver" in library.OpenGpaProfileGetLastError()
    assert library.OpenGpaProfileStop() == -6  # kOpenGpaProfileStatusErrorNotRunning
    assert b"no session is running" in library.OpenGpaProfileGetLastError()
    assert kernels._text("OpenGpaProfileGetLaunches") == "[]"


def test_a_per_kernel_profile_without_a_gpu_raises_opengpa_error():
    with pytest.raises(opengpa.OpenGpaError, match="libcuda"):
        with opengpa.profile(["GPUTime"], per_kernel=True):
            pass


def test_a_per_kernel_profile_refuses_region_only_options():
    with pytest.raises(ValueError, match="per_kernel"):
        opengpa.profile(["GPUTime"], per_kernel=True, max_samples_per_pass=10)
    with pytest.raises(ValueError, match="cache_control"):
        opengpa.profile(["GPUTime"], per_kernel=True, cache_control="some")


def test_range_labels_pop_only_what_was_pushed():
    library = kernels.load_library()
    assert library.OpenGpaProfilePushRange(b"step") == 0
    assert library.OpenGpaProfilePopRange() == 0
    assert library.OpenGpaProfilePopRange() == -6  # kOpenGpaProfileStatusErrorNotRunning
    assert b"no range is open" in library.OpenGpaProfileGetLastError()


def test_recorded_passes_join_launch_by_launch_with_gpa_counters_evaluated_by_the_library(tmp_path):
    streams = [write_pass(tmp_path / f"pass{p}.jsonl", p) for p in range(2)]
    document = kernels.join_streams(streams, tmp_path / "joined.json")
    results = kernels.results_from_profile(document, launch_labels(["step", "matmul"], ["step", "relu"],
                                                                   ["step", "matmul"]))
    assert results.counter_names == ["FetchSize", "GPUTime"]
    assert results.kernels == [name for name, _, _ in LAUNCHES]
    assert results.grids == [(64, 32, 1), (1024, 1, 1), (64, 32, 1)]
    assert results.blocks == [(256, 1, 1), (128, 1, 1), (256, 1, 1)]
    assert results.streams == [7, 7, 7]
    assert results.contexts == [0x5000] * 3
    assert results.regions == ["matmul", "relu", "matmul"]
    assert results.ranges[1] == ("step", "relu")
    assert results.pass_count == 2 and results.replay == "application"
    # FetchSize = dram__bytes_read.sum / 1024; GPUTime = the busiest SM's active / elapsed cycles x duration
    # (catalogs/cuda.json).
    assert results["FetchSize"].tolist() == [2048, 4096, 1024]
    assert results["GPUTime"].tolist() == [4500, 1000, 3000]


def test_passes_whose_launches_differ_are_reported_and_never_mixed(tmp_path):
    first = write_pass(tmp_path / "pass0.jsonl", 0)
    other = list(LAUNCHES)
    other[1] = ("another_kernel", [1024, 1, 1], [128, 1, 1])
    second = write_pass(tmp_path / "pass1.jsonl", 1, launches=other)
    with pytest.raises(opengpa.OpenGpaError, match="another_kernel.*launch 2"):
        kernels.join_streams([first, second], tmp_path / "joined.json")
    reshaped = list(LAUNCHES)
    reshaped[2] = (LAUNCHES[2][0], [32, 32, 1], LAUNCHES[2][2])
    third = write_pass(tmp_path / "pass1b.jsonl", 1, launches=reshaped)
    with pytest.raises(opengpa.OpenGpaError, match="grid 32x32x1"):
        kernels.join_streams([first, third], tmp_path / "joined.json")
    fewer = write_pass(tmp_path / "pass1c.jsonl", 1, launches=LAUNCHES[:2])
    with pytest.raises(opengpa.OpenGpaError, match="2 launches where pass 1 profiled 3"):
        kernels.join_streams([first, fewer], tmp_path / "joined.json")


def test_a_stream_cut_short_is_refused(tmp_path):
    path = write_pass(tmp_path / "pass0.jsonl", 0)
    path.write_text("\n".join(path.read_text().splitlines()[:-1]) + "\n")
    with pytest.raises(opengpa.OpenGpaError, match="no end record"):
        kernels.join_streams([path], tmp_path / "joined.json")


def test_passes_must_launch_under_the_same_regions():
    kernels.check_same_labels([[("a",), ("a", "b")], [("a",), ("a", "b")]])
    with pytest.raises(opengpa.OpenGpaError, match=r"pass 2 made its launch 2 inside regions \['a', 'c'\]"):
        kernels.check_same_labels([[("a",), ("a", "b")], [("a",), ("a", "c")]])
    with pytest.raises(opengpa.OpenGpaError, match="pass 3 made 1 kernel launches where pass 1 made 2"):
        kernels.check_same_labels([[("a",), ("b",)], [("a",), ("b",)], [("a",)]])


def joined_results(tmp_path):
    streams = [write_pass(tmp_path / f"pass{p}.jsonl", p) for p in range(2)]
    document = kernels.join_streams(streams, tmp_path / "joined.json")
    return kernels.results_from_profile(document, launch_labels(["0/aten.addmm.default"], ["1/aten.relu.default"],
                                                                ["0/aten.addmm.default"]))


def test_kernel_rows_aggregate_into_a_per_op_table_and_a_per_kernel_table(tmp_path):
    results = joined_results(tmp_path)
    ops = results.aggregate()
    assert ops.regions == ["0/aten.addmm.default", "1/aten.relu.default"]
    assert ops.counts == [2, 1]
    assert ops["FetchSize"].tolist() == [3072, 4096]  # amounts add up over an op's kernels
    assert ops["GPUTime"].tolist() == [7500, 1000]
    by_kernel = results.aggregate(by="kernel")
    assert by_kernel.regions == ["void gemm<float>(float*, int)", "elementwise_kernel"]
    assert by_kernel.counts == [2, 1]
    with pytest.raises(ValueError):
        results.aggregate(by="stream")


def test_percentages_average_over_kernels_weighted_by_their_time():
    time = opengpa.Counter(0, "gpu__time_duration.sum", "", "", "float64", "nsecond")
    busy = opengpa.Counter(1, "SOL_SM", "", "", "float64", "percentage")
    rows = [{"index": i, "kernel": "k", "grid": [1, 1, 1], "block": [1, 1, 1], "stream": 1, "context": 0,
             "ranges": ["op"], "region": "op"} for i in range(2)]
    results = kernels.KernelResults(rows, [time, busy], [[1000, 90], [3000, 10]])
    table = results.aggregate()
    assert table["gpu__time_duration.sum"].tolist() == [4000]  # a raw ".sum" metric adds up
    assert table["SOL_SM"].tolist() == [30]  # (90 x 1000 + 10 x 3000) / 4000


GRAPH = "CUDA graph: 2 kernel nodes (void gemm<float>(float*, int); elementwise_kernel) + 1 other node"


def test_a_graph_replay_is_one_row_joined_across_passes_whatever_its_graph_id(tmp_path):
    # A step that captures its graph afresh each pass: CUPTI numbers the executable graph anew (5, then 9).
    def launches(graph_id):
        return [LAUNCHES[0], (GRAPH, [0, 0, 0], [0, 0, 0], {"graph": graph_id, "context": 1}), LAUNCHES[2]]
    streams = [write_pass(tmp_path / f"pass{p}.jsonl", p, launches(graph_id)) for p, graph_id in ((0, 5), (1, 9))]
    document = kernels.join_streams(streams, tmp_path / "joined.json")
    results = kernels.results_from_profile(document, launch_labels(["a"], ["b"], ["c"]))
    assert results.kernels[1] == GRAPH
    assert results.graphs == [None, 5, None]
    assert results["FetchSize"].tolist() == [2048, 4096, 1024]  # the graph's totals, as any row's values
    assert document["samples"][1]["context"] == 1


def test_a_graph_launch_never_joins_a_plain_launch_of_the_same_name(tmp_path):
    plain = [LAUNCHES[0], ("one_kernel", [1, 1, 1], [32, 1, 1]), LAUNCHES[2]]
    graph = [LAUNCHES[0], ("one_kernel", [1, 1, 1], [32, 1, 1], {"graph": 3, "graph_node": 0}), LAUNCHES[2]]
    streams = [write_pass(tmp_path / "pass0.jsonl", 0, plain), write_pass(tmp_path / "pass1.jsonl", 1, graph)]
    with pytest.raises(opengpa.OpenGpaError, match="pass 2 of 2 profiled one_kernel"):
        kernels.join_streams(streams, tmp_path / "joined.json")


def test_kernel_rows_as_a_dataframe(tmp_path):
    frame = joined_results(tmp_path).to_dataframe()
    assert list(frame.columns) == ["index", "kernel", "region", "ranges", "grid", "block", "stream", "context",
                                   "graph", "FetchSize", "GPUTime"]
    assert frame.shape == (3, 11)
    assert frame["kernel"].iloc[1] == "elementwise_kernel"
    assert frame["grid"].iloc[0] == (64, 32, 1)
    assert frame.attrs["units"] == {"FetchSize": "kilobytes", "GPUTime": "nanoseconds"}
    assert not np.isnan(frame["GPUTime"]).any()


def test_a_counter_a_pass_left_unmeasured_is_nan_not_zero(tmp_path):
    measured, rows = PASS_VALUES[0]
    path = tmp_path / "pass0.jsonl"
    write_pass(path, 0, values=[[None, 900], rows[1], rows[2]])
    document = kernels.join_streams([path, write_pass(tmp_path / "pass1.jsonl", 1)], tmp_path / "joined.json")
    results = kernels.results_from_profile(document, [])
    assert math.isnan(results["FetchSize"][0]) and results["FetchSize"][1] == 4096
    assert results.regions == ["", "", ""]


def test_passes_recorded_on_the_h100_join_into_a_matmuls_exact_ffma_count(tmp_path):
    # tests/device/python/test_kernels_device.py's fp32 2048^3 product, two passes of application replay
    # (docs/validation.md, "Python: one row per kernel launch").
    recorded = REPOSITORY / "tests" / "python" / "data" / "h100_fp32_matmul_2048"
    document = kernels.join_streams([recorded / "pass0.jsonl", recorded / "pass1.jsonl"], tmp_path / "joined.json")
    with open(recorded / "pass0.launches.json") as labels:
        results = kernels.results_from_profile(document, json.load(labels))
    assert results.kernels == ["void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
                               "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)"]
    assert results.regions == ["matmul"] and results.grids == [(128, 1, 1)] and results.blocks == [(256, 1, 1)]
    assert results.device_name == "NVIDIA H100 80GB HBM3" and results.pass_count == 2
    assert results["FFMAThreadInstructions"][0] == 2048 ** 3  # the GPA counter, from the catalog's formula
    assert results["sm__sass_thread_inst_executed_op_ffma_pred_on.sum"][0] == 2048 ** 3
    assert results["GPUTime"][0] == 343008  # active / elapsed cycles (equal here) x duration
    assert plots.flops(results)[0] == 2 * 2048 ** 3 + 2048 * 2048  # + the epilogue's alpha multiply


class FakeInProcessEntry:
    """opengpa_profile.h's entry as Python sees it, for a machine without a GPU: a step "launches" kernels by
    calling launch(); Stop writes the pass's stream as the injection would; Join is the real library's."""

    def __init__(self, passes=2, replay="application"):
        self.real = kernels.load_library()
        self.plan = {"replay": replay, "passes": passes, "device": "NVIDIA H100 80GB HBM3", "messages": []}
        self.ranges, self.launches, self.started, self.pass_index, self.path = [], [], [], None, None

    def launch(self, name):
        self.launches.append((name, tuple(self.ranges)))

    def OpenGpaProfilePlan(self, context, counters, replay, buffer, size):
        return fill_as_the_library(json.dumps(self.plan), buffer, size)

    def OpenGpaProfileStart(self, options):
        options = options._obj
        assert options.struct_size == ctypes.sizeof(kernels._Options)
        self.pass_index, self.path, self.launches = options.pass_index, options.stream_path.decode(), []
        self.started.append(options.pass_index)
        return 0

    def OpenGpaProfileStop(self):
        write_pass(pathlib.Path(self.path), self.pass_index,
                   launches=[(name, [64, 1, 1], [256, 1, 1]) for name, _ in self.launches],
                   values=PASS_VALUES[self.pass_index][1][: len(self.launches)])
        return 0

    def OpenGpaProfilePushRange(self, name):
        self.ranges.append(name.decode())
        return 0

    def OpenGpaProfilePopRange(self):
        self.ranges.pop()
        return 0

    def OpenGpaProfileGetLaunches(self, buffer, size):
        return fill_as_the_library(json.dumps(launch_labels(*[r for _, r in self.launches])), buffer, size)

    def OpenGpaProfileJoin(self, paths, count, output):
        return self.real.OpenGpaProfileJoin(paths, count, output)

    def OpenGpaProfileGetLastError(self):
        return self.real.OpenGpaProfileGetLastError()


@pytest.fixture
def fake_entry(monkeypatch):
    entry = FakeInProcessEntry()
    monkeypatch.setattr(kernels, "load_library", lambda: entry)
    monkeypatch.setattr(kernels, "_library", entry)
    monkeypatch.setattr(kernels._cuda, "current_context", lambda device=0: 0x5000)
    monkeypatch.setattr(kernels._cuda, "synchronize", lambda: None)
    monkeypatch.setenv("NVTX_INJECTION64_PATH", "")  # set: the profile leaves NVTX alone
    return entry


def test_p_run_replays_the_step_once_per_pass_and_joins_its_launches(fake_entry):
    calls = []

    def step():
        calls.append(1)
        with opengpa.region("matmul"):
            fake_entry.launch("gemm")
        with opengpa.region("relu"):
            fake_entry.launch("relu_kernel")
        return len(calls)

    with opengpa.profile(["FetchSize", "GPUTime"], per_kernel=True) as p:
        assert p.run(step, name="step") == 2
    assert fake_entry.started == [0, 1] and len(calls) == 2
    assert p.replay == "application" and p.pass_count == 2
    assert p.results.kernels == ["gemm", "relu_kernel"]
    assert p.results.ranges == [("step", "matmul"), ("step", "relu")]
    assert p.results["FetchSize"].tolist() == [2048, 4096] and p.results["GPUTime"].tolist() == [4500, 1000]


def test_a_step_that_changes_its_regions_between_passes_is_refused(fake_entry):
    names = iter(["first", "second"])

    def step():
        with opengpa.region(next(names)):
            fake_entry.launch("gemm")

    with pytest.raises(opengpa.OpenGpaError, match=r"pass 2 made its launch 1 inside regions \['second'\]"):
        with opengpa.profile(["FetchSize", "GPUTime"], per_kernel=True) as p:
            p.run(step)


def test_a_multi_pass_set_without_p_run_is_refused_at_the_end_of_the_block(fake_entry):
    with pytest.raises(opengpa.OpenGpaError, match=r"need 2 passes of application replay: .*p.run\(step\)"):
        with opengpa.profile(["FetchSize", "GPUTime"], per_kernel=True):
            fake_entry.launch("gemm")
    assert fake_entry.started == []


def test_p_run_refuses_a_pass_limit_below_what_the_counters_need(fake_entry):
    with opengpa.profile(["FetchSize", "GPUTime"], per_kernel=True) as p:
        with pytest.raises(opengpa.OpenGpaError, match="need 2 passes; passes=1 allows fewer"):
            p.run(lambda: None, passes=1)
        p.run(lambda: fake_entry.launch("gemm"))
    assert p.results.kernels == ["gemm"] and p.results.regions == [""]
