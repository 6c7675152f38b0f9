"""Per-kernel rows as torch.profiler users read them, without a GPU: `table()` (per-kernel totals sorted by time,
every line within the width) and `export_chrome_trace(path)` (one "X" event per launch, counters in its args,
docs/schema/chrome-trace.schema.json), on rows built from data and on a profile file as the CLI writes it."""

import json
import os
import subprocess

import jsonschema
import pytest

import opengpa
from conftest import REPOSITORY
from opengpa import kernels

TIME = opengpa.Counter(0, "GPUTime", "", "", "float64", "nanoseconds")
FETCH = opengpa.Counter(1, "FetchSize", "", "", "float64", "kilobytes")
BUSY = opengpa.Counter(2, "SOL_SM", "", "", "float64", "percentage")
LONG = ("void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
        "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)")


def rows(launch_times=None):
    launches = [(LONG, 7, ("step", "matmul")), ("elementwise_kernel", 7, ("step", "relu")), (LONG, 7, ("step",)),
                ("reduce_kernel", 9, ())]
    made = []
    for index, (kernel, stream, ranges) in enumerate(launches):
        made.append({"index": index, "kernel": kernel, "grid": [index + 1, 1, 1], "block": [128, 1, 1],
                     "stream": stream, "context": 0x5000, "ranges": list(ranges),
                     "region": ranges[-1] if ranges else "", "thread": 42,
                     "host_ns": None if launch_times is None else launch_times[index]})
    return made


VALUES = [[4000, 2048, 90.0], [1000, 4096, 10.0], [2000, 1024, 50.0], [500, float("nan"), 20.0]]


def results(launch_times=None):
    return kernels.KernelResults(rows(launch_times), [TIME, FETCH, BUSY], VALUES, "NVIDIA H100", 1, "none")


def test_the_table_has_one_line_per_kernel_with_totals_sorted_by_time():
    text = results().table(width=200)
    lines = text.splitlines()
    assert lines[0].split() == ["kernel", "calls", "time", "%", "avg", "FetchSize", "SOL_SM"]
    body = lines[2:5]
    # Amounts summed, percentages averaged weighted by time: SOL_SM (90 x 4 + 50 x 2) / 6.
    assert body[0].startswith(LONG) and body[0].split()[-6:] == ["2", "6.000us", "80.0", "3.000us", "3072", "76.6667"]
    assert body[1].split() == ["elementwise_kernel", "1", "1.000us", "13.3", "1.000us", "4096", "10"]
    assert body[2].split() == ["reduce_kernel", "1", "500ns", "6.7", "500ns", "-", "20"]
    assert "4 rows in 3 kernels" in lines[5] and "total 7.500us" in lines[5]


@pytest.mark.parametrize("width", [50, 80, 120])
def test_every_line_of_the_table_fits_the_width_with_names_cut_and_columns_named_when_left_out(width):
    text = results().table(width=width)
    assert all(len(line) <= width for line in text.splitlines()), text
    assert "..." in text.splitlines()[2]  # the long kernel name, cut
    if width == 50:
        assert "column(s) left out" in text


def test_the_table_sorts_by_a_counter_limits_rows_and_refuses_an_unknown_sort_key():
    lines = results().table(sort_by="FetchSize", row_limit=1, width=200).splitlines()
    assert lines[2].startswith("elementwise_kernel") and len(lines) == 4 and "shown 1" in lines[3]
    assert results().table(by="region", width=200).splitlines()[2].startswith("matmul")
    with pytest.raises(ValueError, match="sort_by 'nope'"):
        results().table(sort_by="nope")


def test_a_region_profile_prints_a_table_too():
    region_results = opengpa.Results(["a", "b", "a"], [TIME], [[10], [40], [20]], "dev")
    lines = region_results.table(width=80).splitlines()
    assert lines[2].split() == ["b", "1", "40ns", "57.1", "40ns"]
    assert lines[3].split() == ["a", "2", "30ns", "42.9", "15ns"]


def load_trace(rows_results, path):
    rows_results.export_chrome_trace(path)
    with open(path) as trace:
        document = json.load(trace)
    with open(REPOSITORY / "docs" / "schema" / "chrome-trace.schema.json") as schema:
        jsonschema.validate(document, json.load(schema))
    return document, [event for event in document["traceEvents"] if event["ph"] == "X"]


def test_the_chrome_trace_has_one_event_per_launch_with_its_counters(tmp_path):
    document, events = load_trace(results(), tmp_path / "trace.json")
    assert [e["name"] for e in events] == [LONG, "elementwise_kernel", LONG, "reduce_kernel"]
    for event, values in zip(events, VALUES):
        expected = dict(zip(["GPUTime", "FetchSize", "SOL_SM"], values))
        expected["FetchSize"] = None if expected["FetchSize"] != expected["FetchSize"] else expected["FetchSize"]
        assert {name: event["args"][name] for name in expected} == expected
    # No timestamps: laid end to end on each stream, as long as GPUTime, in microseconds.
    assert [(e["tid"], e["ts"], e["dur"]) for e in events] == [(7, 0, 4), (7, 4, 1), (7, 5, 2), (9, 0, 0.5)]
    assert events[0]["args"]["grid"] == "1x1x1" and events[0]["args"]["ranges"] == ["step", "matmul"]
    assert events[0]["args"]["timeline"].startswith("laid end to end")
    names = {(e["name"], e["tid"]): e["args"]["name"] for e in document["traceEvents"] if e["ph"] == "M"}
    assert names == {("process_name", 0): "cuda NVIDIA H100", ("thread_name", 7): "stream 7",
                     ("thread_name", 9): "stream 9"}


def counter_tracks(document):
    """{(counter, ts, track): value} of the trace's "C" events."""
    tracks = {}
    for event in document["traceEvents"]:
        if event["ph"] == "C":
            (track, value), = event["args"].items()
            tracks[(event["name"], event["ts"], track)] = value
    return tracks


def test_the_chrome_trace_has_a_counter_track_per_counter_and_stream_with_each_launchs_value(tmp_path):
    document, _ = load_trace(results(), tmp_path / "trace.json")
    tracks = counter_tracks(document)
    # Stream 7's three launches run back to back (0-4, 4-5, 5-7 us): their values step without a drop to 0 between
    # them; stream 9's one launch (0-0.5 us) has no FetchSize, so that track has no event of it.
    for column, name in enumerate(["GPUTime", "FetchSize", "SOL_SM"]):
        values = [row[column] for row in VALUES]
        expected = {}
        for start, end, value, next_value, stream in ((0, 4, values[0], values[1], 7), (4, 5, values[1], values[2], 7),
                                                      (5, 7, values[2], None, 7), (0, 0.5, values[3], None, 9)):
            if value != value:
                continue
            expected[(name, start, f"stream {stream}")] = value
            if next_value is None or next_value != next_value:
                expected[(name, end, f"stream {stream}")] = 0
        assert {key: v for key, v in tracks.items() if key[0] == name} == expected, name


def test_launch_times_place_each_kernel_no_earlier_than_the_previous_one_on_its_stream_ended(tmp_path):
    start = 1_700_000_000_000_000_000
    launched = results([start, start + 1000, start + 2000, start + 3000])
    _, events = load_trace(launched, tmp_path / "trace.json")
    # The first kernel runs 4 us: the second, launched 1 us in, starts at 4 us; the third at 5 us; stream 9 at 3 us.
    assert [(e["ts"], e["dur"]) for e in events] == [(0, 4), (4, 1), (5, 2), (3, 0.5)]
    assert events[1]["args"]["launch_time_ns"] == start + 1000
    assert events[1]["args"]["timeline"].startswith("from the host launch time")


def test_a_profile_file_of_the_cli_loads_with_its_device_timestamps(tmp_path):
    sample = {"pid": 0, "rank": None, "host": "", "gpu": None, "gpu_uuid": "", "pci_bus_id": "", "nvtx": [],
              "queue": 1, "grid": [1024, 1, 1], "block": [64, 1, 1]}
    document = {"schema": "opengpa-profile/1", "api": "cl", "device": "pthread", "command": ["./app"],
                "exit_code": 0, "wall_time_s": 0.5, "queues": [{"id": 1, "name": "queue 1", "device": "pthread"}],
                "counters": [{"name": "GPUTime", "usage": "nanoseconds", "data_type": "float64"}],
                "samples": [dict(sample, index=0, kernel="add", start_ns=5000, end_ns=9000,
                                 values={"GPUTime": 4000}),
                            dict(sample, index=1, kernel="scale", start_ns=12000, end_ns=13500, nvtx=["outer"],
                                 values={"GPUTime": 1500})],
                "messages": []}
    with open(REPOSITORY / "docs" / "schema" / "profile.schema.json") as schema:
        jsonschema.validate(document, json.load(schema))
    (tmp_path / "run.json").write_text(json.dumps(document))
    loaded = kernels.load_profile(tmp_path / "run.json")
    assert loaded.kernels == ["add", "scale"] and loaded.api == "cl" and loaded.ranges[1] == ("outer",)
    assert loaded["GPUTime"].tolist() == [4000, 1500]
    _, events = load_trace(loaded, tmp_path / "trace.json")
    assert [(e["ts"], e["dur"], e["cat"]) for e in events] == [(0, 4, "cl"), (7, 1.5, "cl")]
    assert "timeline" not in events[0]["args"]
    (tmp_path / "other.json").write_text("{}")
    with pytest.raises(ValueError, match="not an opengpa profile"):
        kernels.load_profile(tmp_path / "other.json")


def test_a_kernel_profile_without_results_says_when_to_call_its_outputs(tmp_path):
    profile = opengpa.KernelProfile(["GPUTime"])
    with pytest.raises(opengpa.OpenGpaError, match="after the profile's with block"):
        profile.export_chrome_trace(tmp_path / "trace.json")
    profile.results = results()
    assert profile.table(width=100) == results().table(width=100)


@pytest.mark.skipif(not os.environ.get("OPENGPA_CL_WORKLOAD"), reason="tests/cli's OpenCL workload was not built")
def test_a_real_opencl_profile_of_the_cli_reads_back_and_traces_as_the_cli_traces_it(tmp_path):
    cli = os.path.join(os.environ["OPENGPA_LIBRARY_DIR"], os.pardir, "bin", "opengpa")
    ran = subprocess.run([cli, "profile", "--api", "cl", "-o", str(tmp_path / "run"), "--",
                          os.environ["OPENGPA_CL_WORKLOAD"], "4096"], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    loaded = kernels.load_profile(tmp_path / "run.json")
    # The workload's fixed schedule (tests/cli/opencl_kernel_workload.cc), PoCL's device timestamps.
    assert loaded.kernels == ["scale"] * 3 + ["add"] * 4 + ["fill2d"] and loaded.api == "cl"
    assert all(start is not None for start in loaded.start_times_ns)
    table = loaded.table(width=100).splitlines()
    assert sorted(line.split()[0] for line in table[2:5]) == ["add", "fill2d", "scale"]
    assert {line.split()[0]: line.split()[1] for line in table[2:5]} == {"scale": "3", "add": "4", "fill2d": "1"}
    python_trace, ours = load_trace(loaded, tmp_path / "python.trace.json")
    with open(tmp_path / "run.trace.json") as trace:
        theirs = [event for event in json.load(trace)["traceEvents"] if event["ph"] == "X"]
    assert [(e["name"], e["ts"], e["dur"], e["tid"]) for e in ours] == \
        [(e["name"], e["ts"], e["dur"], e["tid"]) for e in theirs]
    for mine, cli_event in zip(ours, theirs):
        assert {k: mine["args"][k] for k in cli_event["args"]} == cli_event["args"]
    with open(tmp_path / "run.trace.json") as trace:  # the same counter values at the same times
        cli_tracks = counter_tracks(json.load(trace))
    python_tracks = counter_tracks(python_trace)
    assert sorted((name, round(ts, 6), value) for (name, ts, _queue), value in python_tracks.items()) == \
        sorted((name, round(ts, 6), value) for (name, ts, _queue), value in cli_tracks.items())


def test_without_a_time_counter_the_table_sorts_by_calls_and_traces_last_zero(tmp_path):
    untimed = kernels.KernelResults([dict(row, host_ns=None) for row in rows()], [FETCH], [[1], [2], [3], [4]])
    lines = untimed.table(width=80).splitlines()
    assert lines[0].split() == ["kernel", "calls", "FetchSize"]
    assert [line.split()[-2:] for line in lines[2:5]] == [["2", "4"], ["1", "2"], ["1", "4"]]
    _, events = load_trace(untimed, tmp_path / "trace.json")
    assert [e["dur"] for e in events] == [0, 0, 0, 0] and [e["args"]["FetchSize"] for e in events] == [1, 2, 3, 4]
