"""The sampled mode from Python (opengpa.profile(..., per_kernel=True, mode="sampled")) without a GPU: the argument
checks and refusals, the C entry's refusals, and what is made of a sampled profile's rows (the CLI's JSON schema,
pm__ columns, device times): the "duration" column, tables, per-range and per-op sums of the launches' shares, and
the Chrome trace placed at the device times."""

import ctypes
import json
import pathlib

import numpy as np
import pytest

import opengpa
from conftest import fill_as_the_library
from opengpa import kernels
from opengpa.op_attribution import MODULE, OP, CpuEvent, attribute

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]

# ---- refusals --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arguments, message", [
    (dict(mode="fast"), 'mode must be "exact" or "sampled"'),
    (dict(mode="sampled"), "per_kernel=True"),
    (dict(per_kernel=True, mode="sampled", replay="kernel"), "nothing replayed"),
    (dict(per_kernel=True, mode="sampled", replay="application"), "nothing replayed"),
    (dict(per_kernel=True, mode="sampled", cache_control="all"), "cache_control"),
    (dict(per_kernel=True, mode="sampled", sampling_interval_us=0), "0.5 to 1,000,000"),
    (dict(per_kernel=True, mode="sampled", sampling_interval_us=float("nan")), "0.5 to 1,000,000"),
    (dict(per_kernel=True, mode="sampled", sampling_interval_us="20"), "0.5 to 1,000,000"),
    (dict(per_kernel=True, mode="sampled", sampling_interval_us=True), "0.5 to 1,000,000"),
    (dict(per_kernel=True, sampling_interval_us=20), 'for mode="sampled"'),
    (dict(sampling_interval_us=20), 'for mode="sampled"'),
])
def test_what_the_sampled_mode_cannot_do_is_refused_before_anything_runs(arguments, message):
    with pytest.raises(ValueError, match=message):
        opengpa.profile(["dram__bytes_read.sum"], **arguments)


def test_only_the_sampled_mode_has_default_counters():
    with pytest.raises(TypeError, match="counters"):
        opengpa.profile(per_kernel=True)
    with pytest.raises(TypeError, match="counters"):
        opengpa.profile()
    profile = opengpa.profile(per_kernel=True, mode="sampled")
    assert profile.counter_names == [] and profile.mode == "sampled" and profile.cache_control == "none"


def test_the_c_entry_refuses_gpa_counters_and_bad_intervals_and_says_why(tmp_path):
    library = kernels.load_library()
    assert hasattr(library, "OpenGpaProfileStartSampled")

    def start(metrics, interval_us, kernel_name=b""):
        options = kernels._SampledOptions(ctypes.sizeof(kernels._SampledOptions), metrics, interval_us, kernel_name,
                                          str(tmp_path / "t.jsonl").encode(), str(tmp_path / "p.json").encode(), 1)
        status = library.OpenGpaProfileStartSampled(ctypes.byref(options))
        return status, library.OpenGpaProfileGetLastError().decode()

    status, message = start(b"GPUTime", 20.0)
    assert status == -2 and message.startswith("OpenGpaProfileStartSampled: the sampled mode measures CUPTI PM "
                                               "sampling metrics") and "'GPUTime' is neither" in message
    status, message = start(b"SpeedOfLight", 0.0)  # sampled Speed of Light: the names are fine, the GPU missing
    assert status == -4 and "no CUDA driver" in message
    status, message = start(b"dram__bytes_read.sum", 0.1)
    assert status == -2 and "outside 0.5 to 1,000,000" in message
    status, message = start(b"dram__bytes_read.sum", 20.0, b"gemm(")
    assert status == -2 and "gemm(" in message
    status, message = start(b"", 20.0)  # the default metrics are fine: what is missing here is the GPU
    assert status == -4 and "no CUDA driver" in message
    assert not (tmp_path / "t.jsonl").exists(), "nothing is written before a session starts"


def test_a_sampled_profile_without_a_gpu_raises_opengpa_error():
    with pytest.raises(opengpa.OpenGpaError, match="libcuda"):
        with opengpa.profile(["dram__bytes_read.sum"], per_kernel=True, mode="sampled"):
            pass


# ---- a sampled profile's rows ----------------------------------------------------------------------------------

METRICS = [("dram__bytes_read.sum", "bytes", "float64"), ("dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                                          "%", "float64"),
           ("pm__coverage", "ratio", "float64"), ("pm__samples", "items", "uint64"),
           ("pm__overlapped", "boolean", "uint64"), ("pm__short", "boolean", "uint64")]

# (kernel, ranges, start_ns, end_ns, DRAM bytes read, DRAM throughput %, samples): a step of two ranges, each of
# whose launches took its share of the samples, and one launch outside every range.
ROWS = [("copy_kernel", ["step", "load"], 1_000, 61_000, 600_000.0, 50.0, 4),
        ("gemm", ["step", "mm"], 61_000, 181_000, 300_000.0, 20.0, 7),
        ("copy_kernel", ["step", "load"], 181_000, 201_000, 200_000.0, 80.0, 2),
        ("relu_kernel", [], 201_000, 211_000, 10_000.0, 10.0, 1)]


def sampled_document():
    """A sampled run's JSON as OpenGpaProfileStop (and `opengpa profile --mode sampled`) writes it."""
    samples = []
    for index, (name, ranges, start, end, read, throughput, count) in enumerate(ROWS):
        values = [read, throughput, 1.0, count, 0, 1 if end - start < 60_000 else 0]
        samples.append({"pid": 0, "rank": None, "host": "", "gpu": 0, "gpu_uuid": "", "pci_bus_id": "",
                        "index": index, "kernel": name, "queue": 0, "grid": [132, 1, 1], "block": [512, 1, 1],
                        "start_ns": start, "end_ns": end, "nvtx": ranges,
                        "values": {m[0]: v for m, v in zip(METRICS, values)}})
    return {"schema": "opengpa-profile/1", "api": "cuda", "device": "NVIDIA H100 80GB HBM3",
            "command": ["python3", "train.py"], "exit_code": 0, "wall_time_s": 0.5,
            "replay": {"mode": "none", "passes": 1},
            "counters": [{"name": n, "usage": u, "data_type": t} for n, u, t in METRICS],
            "queues": [{"id": 0, "name": "stream 7", "device": "NVIDIA H100 80GB HBM3"}], "samples": samples,
            "messages": ["PM sampling on GPU 0 (NVIDIA H100 80GB HBM3): 11 samples of 20.0 µs cover 0.2 of 0.2 ms"]}


def launch_labels():
    return [{"index": i, "context": "0x5000", "ranges": row[1], "thread": 4242, "host_ns": 10_000 + 1_000 * i}
            for i, row in enumerate(ROWS)]


def test_the_document_matches_the_profile_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPOSITORY / "docs/schema/profile.schema.json").read_text())
    jsonschema.validate(sampled_document(), schema)
    results = kernels.results_from_profile(sampled_document(), launch_labels())
    jsonschema.validate(results.profile_document(), schema)  # with the duration column


def test_sampled_rows_get_a_duration_from_their_device_times_and_keep_their_labels():
    results = kernels.results_from_profile(sampled_document(), launch_labels())
    assert results.counter_names[-1] == "duration"
    assert results["duration"].tolist() == [60_000, 120_000, 20_000, 10_000]
    assert results.ranges == [("step", "load"), ("step", "mm"), ("step", "load"), ()]
    assert results.regions == ["load", "mm", "load", ""]
    assert results.threads == [4242] * 4 and results.launch_times_ns == [10_000, 11_000, 12_000, 13_000]
    assert results["pm__samples"].tolist() == [4, 7, 2, 1]


def test_a_per_range_summary_sums_the_launches_shares():
    results = kernels.results_from_profile(sampled_document(), launch_labels())
    by_path = results.aggregate(by="path")
    assert by_path.regions == ["step/load", "step/mm", ""]
    assert by_path.counts == [2, 1, 1]
    assert by_path["dram__bytes_read.sum"].tolist() == [800_000.0, 300_000.0, 10_000.0]
    assert by_path["dram__bytes_read.sum"].sum() == results["dram__bytes_read.sum"].sum()
    assert by_path["duration"].tolist() == [80_000, 120_000, 10_000]
    # A reading is averaged weighted by the launches' time: (50 * 60 + 80 * 20) / 80.
    assert by_path["dram__throughput.avg.pct_of_peak_sustained_elapsed"][0] == pytest.approx(57.5)
    by_region = results.aggregate()
    assert by_region.regions == ["load", "mm", ""]
    assert by_region["dram__bytes_read.sum"].tolist() == [800_000.0, 300_000.0, 10_000.0]
    with pytest.raises(ValueError, match='"path"'):
        results.aggregate(by="stream")


def test_the_table_times_sampled_rows_by_their_duration():
    results = kernels.results_from_profile(sampled_document(), launch_labels())
    table = results.table(width=200)
    lines = table.splitlines()
    assert lines[0].split()[:5] == ["kernel", "calls", "time", "%", "avg"]
    assert lines[2].split()[:3] == ["gemm", "1", "120.000us"]  # the longest total first
    assert lines[3].split()[:3] == ["copy_kernel", "2", "80.000us"]
    assert "time (duration) total 210.000us" in table
    by_path = results.table(by="path", width=200).splitlines()
    assert by_path[2].split()[:3] == ["step/mm", "1", "120.000us"]


def test_the_chrome_trace_places_sampled_rows_at_their_device_times():
    results = kernels.results_from_profile(sampled_document(), launch_labels())
    events = [e for e in results.chrome_trace()["traceEvents"] if e.get("ph") == "X"]
    assert [(e["ts"], e["dur"]) for e in events] == [(0.0, 60.0), (60.0, 120.0), (180.0, 20.0), (200.0, 10.0)]
    assert "timeline" not in events[0]["args"]
    assert events[0]["args"]["dram__bytes_read.sum"] == 600_000.0


def test_torch_ops_attribution_places_sampled_rows_in_their_operators():
    # What TorchOps reads out of torch.profiler, on the launching thread: the launches' host times at 10, 11, 12
    # and 13 µs fall in an aten::copy_ (10-11.5 µs, twice the kernel copy_kernel... and gemm) and an aten::relu.
    events = [CpuEvent("0", 9_000, 12_900, 4242, MODULE),
              CpuEvent("aten::copy_", 9_500, 10_500, 4242, OP),
              CpuEvent("aten::mm", 10_600, 11_500, 4242, OP),
              CpuEvent("aten::copy_", 11_600, 12_500, 4242, OP),
              CpuEvent("aten::relu", 12_800, 13_500, 4242, OP)]
    results = kernels.results_from_profile(sampled_document(), launch_labels())
    table = attribute(results, events)
    assert table.ops == ["aten::copy_", "aten::mm", "aten::copy_", "aten::relu"]
    per_op = table.per_op()
    assert per_op.regions == ["aten::copy_", "aten::mm", "aten::relu"]
    assert per_op["dram__bytes_read.sum"].tolist() == [800_000.0, 300_000.0, 10_000.0]
    per_module = table.per_module()
    assert per_module.regions == ["0", "(no module)"]
    assert np.isclose(per_module["dram__bytes_read.sum"].sum(), 1_110_000.0)


# ---- the Python side of a sampled session, the C entry played by a fake ----------------------------------------


class FakeSampledEntry:
    """The C entry of a sampled session: StartSampled records its options, Stop writes the profile the real one
    writes (sampled_document, one row per launch made), GetLaunches gives the rows' labels."""

    def __init__(self):
        self.real = kernels.load_library()
        self.options = None
        self.ranges, self.made = [], []

    def OpenGpaProfileStartSampled(self, options):
        options = options._obj
        assert options.struct_size == ctypes.sizeof(kernels._SampledOptions)
        self.options = {name: getattr(options, name) for name, _ in options._fields_}
        return 0

    def OpenGpaProfileStop(self):
        document = sampled_document()
        for sample, ranges in zip(document["samples"], self.made):
            sample["nvtx"] = list(ranges)
        document["samples"] = document["samples"][: len(self.made)]
        pathlib.Path(self.options["output_path"].decode()).write_text(json.dumps(document))
        return 0

    def launch(self):
        self.made.append(tuple(self.ranges))

    def OpenGpaProfilePushRange(self, name):
        self.ranges.append(name.decode())
        return 0

    def OpenGpaProfilePopRange(self):
        self.ranges.pop()
        return 0

    def OpenGpaProfileGetLaunches(self, buffer, size):
        labels = [{"index": i, "context": "0x5000", "ranges": list(r), "thread": 1, "host_ns": 5 + i}
                  for i, r in enumerate(self.made)]
        return fill_as_the_library(json.dumps(labels), buffer, size)

    def OpenGpaProfileGetLastError(self):
        return self.real.OpenGpaProfileGetLastError()

    def OpenGpaProfilePlan(self, *arguments):
        raise AssertionError("a sampled profile plans no passes")


@pytest.fixture
def fake_sampled(monkeypatch):
    entry = FakeSampledEntry()
    monkeypatch.setattr(kernels, "load_library", lambda: entry)
    monkeypatch.setattr(kernels, "_library", entry)
    monkeypatch.setattr(kernels._cuda, "current_context", lambda device=0: 0x5000)
    monkeypatch.setattr(kernels._cuda, "synchronize", lambda: None)
    monkeypatch.setenv("NVTX_INJECTION64_PATH", "")
    return entry


def test_a_sampled_profile_runs_the_block_once_with_its_options_and_regions_label_the_rows(fake_sampled, tmp_path):
    with opengpa.profile(["dram__bytes_read.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed"],
                         per_kernel=True, mode="sampled", sampling_interval_us=5, kernel_name="copy|gemm",
                         stream_folder=tmp_path) as p:
        with opengpa.region("step"):
            with opengpa.region("load"):
                fake_sampled.launch()
            with opengpa.region("mm"):
                fake_sampled.launch()
    options = fake_sampled.options
    assert options["metrics"] == b"dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
    assert options["interval_us"] == 5.0 and options["kernel_name"] == b"copy|gemm" and options["with_nvtx"] == 1
    assert options["output_path"].decode() == str(tmp_path / "sampled.json")
    assert p.replay == "none" and p.pass_count == 1
    assert p.results.replay == "none" and len(p.results) == 2  # the schema's replay: nothing replayed
    assert p.results.ranges == [("step", "load"), ("step", "mm")]
    assert p.results.launch_times_ns == [5, 6]
    assert "PM sampling on GPU 0" in p.messages[0]
    assert (tmp_path / "pass0.launches.json").exists()


def test_p_run_calls_the_step_once_in_a_sampled_profile(fake_sampled):
    calls = []

    def step():
        calls.append(1)
        fake_sampled.launch()

    with opengpa.profile(per_kernel=True, mode="sampled") as p:
        p.run(step, name="step")
    assert len(calls) == 1 and p.results.ranges == [("step",)]
    assert fake_sampled.options["metrics"] == b"" and fake_sampled.options["interval_us"] == 0.0
