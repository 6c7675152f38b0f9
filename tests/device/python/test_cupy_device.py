"""Regions around CuPy work (its own process: CuPy alone on the primary CUDA context)."""

import cupy
import pytest

import opengpa


def test_a_cupy_elementwise_ops_dram_bytes_equal_its_tensors_sizes():
    x = cupy.random.random(1 << 28, dtype=cupy.float32)  # 1 GiB
    y = cupy.empty_like(x)
    cupy.multiply(x, 2.0, out=y)
    cupy.cuda.Device().synchronize()
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"]) as p:
        with opengpa.region("cupy multiply"):
            cupy.multiply(x, 2.0, out=y)
    row = p.results.region("cupy multiply")
    read, written = row["FetchSize"] * 1024 / x.nbytes, row["WriteSize"] * 1024 / x.nbytes
    print(f"\ncupy {cupy.__version__}: read {read:.5f}, wrote {written:.5f} of {x.nbytes} B, "
          f"GPUTime {row['GPUTime']:.0f} ns")
    assert read == pytest.approx(1.0, rel=0.02)
    assert written == pytest.approx(1.0, rel=0.05)  # up to an L2 (50 MB, 4.7%) may still be dirty at the end
