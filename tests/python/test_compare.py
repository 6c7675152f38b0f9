"""opengpa.compare(): `opengpa compare` from Python, on profiles whose truth the test writes itself."""

import json

import pytest

import opengpa


def write_rank(path, rank, scale):
    """A profile of one rank: gemm (1000 ns x scale, SM 60 %) and relu (100 ns x scale, SM 20 %), twice each."""
    samples = []
    for index in range(4):
        kernel = "gemm" if index % 2 == 0 else "relu"
        time, sm = (1000.0, 60.0) if kernel == "gemm" else (100.0, 20.0)
        samples.append({"pid": 100 + rank, "rank": rank, "index": index, "kernel": kernel, "queue": 0,
                        "grid": [1, 1, 1], "block": [1, 1, 1], "nvtx": ["step"],
                        "values": {"gpu__time_duration.sum": time * scale, "sm__throughput.avg.pct_of_peak": sm}})
    counters = [{"name": "gpu__time_duration.sum", "usage": "nsecond", "data_type": "float64"},
                {"name": "sm__throughput.avg.pct_of_peak", "usage": "percent", "data_type": "float64"}]
    with open(path, "w") as f:
        json.dump({"schema": "opengpa-profile/1", "api": "cuda", "device": "test", "command": ["x"], "exit_code": 0,
                   "wall_time_s": 1.0, "counters": counters, "queues": [], "samples": samples, "messages": []}, f)
    return str(path)


def test_compare_names_the_slow_rank_of_every_kernel(tmp_path):
    paths = [write_rank(tmp_path / f"rank{r}.json", r, scale) for r, scale in enumerate((1.0, 1.01, 1.8, 0.99))]
    result = opengpa.compare(paths)
    assert result["mode"] == "members"
    assert [group["group"] for group in result["groups"]] == ["gemm", "relu"]
    for group in result["groups"]:
        assert group["outlier"] == "rank 2"
        assert group["counters"][0]["max_member"] == "rank 2"
        assert group["launches_median"] == 2


def test_compare_diff_names_the_counters_that_moved(tmp_path):
    before = write_rank(tmp_path / "before.json", 0, 1.0)
    after = write_rank(tmp_path / "after.json", 0, 1.5)
    result = opengpa.compare([before, after], diff=True, counters=["gpu__time_duration.sum"])
    moved = [(c["group"], c["change_percent"]) for c in result["changes"] if c["moved"]]
    assert moved == [("gemm", pytest.approx(50.0)), ("relu", pytest.approx(50.0))]


def test_compare_raises_with_the_clis_reason(tmp_path):
    path = write_rank(tmp_path / "rank0.json", 0, 1.0)
    with pytest.raises(RuntimeError, match="no counter 'missing'"):
        opengpa.compare([path], counters=["missing"])
