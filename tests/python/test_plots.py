"""Plots and aggregation: FLOPs, bytes and time taken from the counters collected, written to PNG."""

import numpy as np
import pytest

import opengpa
from opengpa import plots


def counter(name, usage):
    return opengpa.Counter(0, name, "", "", "float64", usage)


def results(regions, columns):
    usages = {"GPUTime": "nanoseconds", "LocalVidMemBytes": "bytes", "SOL_SM": "percentage",
              "FetchSize": "kilobytes", "WriteSize": "kilobytes"}
    counters = [counter(name, usages.get(name, "items")) for name in columns]
    values = np.array([columns[name] for name in columns], dtype=float).T
    return opengpa.Results(regions, counters, values, "Test GPU")


FFMA, FADD, FMUL = plots.FP32_COUNTERS


def test_flops_are_two_per_ffma_plus_fadds_fmuls_and_tensor_ops():
    r = results(["a", "b"], {FFMA: [10, 0], FADD: [1, 2], FMUL: [3, 4], plots.TENSOR_COUNTERS[0]: [0, 100]})
    np.testing.assert_array_equal(plots.flops(r), [24, 106])


def test_flops_without_a_flop_counter_say_which_set_to_collect():
    with pytest.raises(KeyError, match="ROOFLINE_COUNTERS"):
        plots.flops(results(["a"], {"GPUTime": [1]}))


def test_dram_bytes_come_from_local_vid_mem_bytes_or_fetch_plus_write_size():
    np.testing.assert_array_equal(plots.dram_bytes(results(["a"], {"LocalVidMemBytes": [512]})), [512])
    np.testing.assert_array_equal(plots.dram_bytes(results(["a"], {"FetchSize": [1], "WriteSize": [2]})), [3072])


def test_the_roofline_places_each_region_at_its_intensity_and_rate_and_writes_a_png(tmp_path):
    r = results(["matmul", "copy", "idle"],
                {"GPUTime": [1e6, 2e6, 0], "LocalVidMemBytes": [1e9, 4e9, 0], FFMA: [5e11, 0, 0], FADD: [0, 1e6, 0]})
    path = tmp_path / "roofline.png"
    points = plots.roofline(r, path, peak_flops=60e12, peak_bandwidth=3e12)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    np.testing.assert_allclose(points["intensity"][:2], [1e12 / 1e9, 1e6 / 4e9])
    np.testing.assert_allclose(points["flops_per_second"][:2], [1e12 / 1e-3, 1e6 / 2e-3])
    assert np.isnan(points["intensity"][2])  # no time, no bytes: not a point


def test_bars_put_the_largest_region_first_and_write_a_png(tmp_path):
    r = results(["small", "large", "medium"], {"GPUTime": [1, 30, 20]})
    path = tmp_path / "bars.png"
    assert plots.bars(r, path, "GPUTime") == ["large", "medium", "small"]
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_aggregate_sums_amounts_and_weights_percentages_by_gputime():
    r = results(["op", "other", "op"], {"GPUTime": [100, 50, 300], "LocalVidMemBytes": [10, 5, 30],
                                        "SOL_SM": [80, 10, 40]})
    aggregated = r.aggregate()
    assert aggregated.regions == ["op", "other"] and aggregated.counts == [2, 1]
    np.testing.assert_allclose(aggregated["GPUTime"], [400, 50])
    np.testing.assert_allclose(aggregated["LocalVidMemBytes"], [40, 5])
    np.testing.assert_allclose(aggregated["SOL_SM"], [(80 * 100 + 40 * 300) / 400, 10])
    assert list(aggregated.to_dataframe().columns[:2]) == ["region", "count"]


def test_the_roofline_draws_several_named_compute_ceilings(tmp_path):
    r = results(["matmul"], {"GPUTime": [1e6], "LocalVidMemBytes": [1e9], FFMA: [5e11]})
    path = tmp_path / "roofline.png"
    plots.roofline(r, path, peak_flops={"bf16 tensor": 750e12, "fp32 FMA": 50e12}, peak_bandwidth=3e12)
    assert path.stat().st_size > 10000
