"""opengpa.torch_trace.add_counters: torch.profiler's trace gains each kernel's counters in its args, kernels
matched by name and order, checked on the H100 training step's profile (tests/report/data) and a trace in Kineto's
shape (its kernel events' cat, grid and block) built from that step's launches."""

import gzip
import json

import pytest

from conftest import REPOSITORY
from opengpa import kernels, torch_trace

PROFILE = REPOSITORY / "tests" / "report" / "data" / "h100_torch_ops.profile.json"


def kineto_trace(document):
    """A trace as torch.profiler writes one: CPU ops and runtime calls around the GPU kernels, kernels with their
    grid and block, a memcpy, and the same launches in the same order as the profile."""
    events = [{"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 0, "dur": 50,
               "args": {"External id": 1}}]
    for number, sample in enumerate(document["samples"]):
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": 10 * number, "dur": 2, "args": {"correlation": 100 + number}})
        events.append({"ph": "X", "cat": "kernel", "name": sample["kernel"], "pid": 0, "tid": 7,
                       "ts": 10 * number + 5, "dur": 3,
                       "args": {"correlation": 100 + number, "grid": sample["grid"], "block": sample["block"],
                                "stream": 7, "device": 0}})
    events.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 1, "dur": 1,
                   "args": {}})
    return {"schemaVersion": 1, "traceEvents": events}


def test_each_kernel_event_gets_its_launchs_counters_and_nothing_else_changes(tmp_path):
    document = json.loads(PROFILE.read_text())
    trace = kineto_trace(document)
    summary = torch_trace.add_counters(trace, PROFILE, tmp_path / "merged.json")
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert summary["matched"] == len(document["samples"]) == summary["trace_kernels"] == summary["profile_rows"]
    assert summary["unmatched_trace"] == {} and summary["unmatched_profile"] == {}
    kernel_events = [e for e in merged["traceEvents"] if e["cat"] == "kernel"]
    for event, sample in zip(kernel_events, document["samples"]):
        assert {name: event["args"][name] for name in sample["values"]} == sample["values"]
        assert event["args"]["opengpa_index"] == sample["index"] and event["args"]["correlation"] >= 100
    others = [e for e in merged["traceEvents"] if e["cat"] != "kernel"]
    assert others == [e for e in trace["traceEvents"] if e["cat"] != "kernel"]
    assert "GPUTime" not in trace["traceEvents"][2]["args"]  # the caller's document is left as it was


def test_kernels_one_side_lacks_or_launched_otherwise_are_counted_not_matched(tmp_path):
    document = json.loads(PROFILE.read_text())
    trace = kineto_trace(document)
    kernel_events = [e for e in trace["traceEvents"] if e["cat"] == "kernel"]
    kernel_events[0]["args"]["grid"] = [1, 1, 1]  # another launch configuration than the profile's first launch
    trace["traceEvents"].append(dict(kernel_events[-1], name="only_in_the_trace"))
    with gzip.open(tmp_path / "torch.json.gz", "wt") as packed:
        json.dump(trace, packed)
    results = kernels.load_profile(PROFILE)
    summary = torch_trace.add_counters(tmp_path / "torch.json.gz", results, tmp_path / "merged.json")
    first = document["samples"][0]["kernel"]
    assert summary["matched"] == len(document["samples"]) - 1 and summary["shape_mismatches"] == 1
    assert summary["unmatched_trace"] == {first: 1, "only_in_the_trace": 1}
    assert summary["unmatched_profile"] == {first: 1}
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert "GPUTime" not in merged["traceEvents"][2]["args"]


def test_a_file_that_is_no_trace_is_refused(tmp_path):
    (tmp_path / "not_a_trace.json").write_text('{"events": []}')
    with pytest.raises(ValueError, match="not a Chrome trace"):
        torch_trace.add_counters(tmp_path / "not_a_trace.json", PROFILE, tmp_path / "out.json")
