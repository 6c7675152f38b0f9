"""One row per CuPy kernel launch (opengpa.profile(..., per_kernel=True)), in a process of its own: an
ElementwiseKernel's DRAM bytes against its arrays' sizes, and a RawKernel whose FFMA count is known exactly."""

import json
import os

import pytest

cupy = pytest.importorskip("cupy")

import opengpa  # noqa: E402
from opengpa import plots  # noqa: E402

OUT = os.environ.get("OPENGPA_DEVICE_OUT", "/tmp/opengpa-python")
FFMA = plots.FP32_COUNTERS[0]
SUMMARY = {}

# Each thread runs `iterations` dependent FFMAs (none can be folded: each uses the last result and the
# thread's own input), then stores one float: FFMA count = threads x iterations, 4 B read and written each.
RAW_SOURCE = r"""
extern "C" __global__ void ffma_chain(const float* x, float* y, int n, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float value = x[i];
  float scale = __fadd_rn(1.0f, __fmul_rn(value, 1e-7f));  // rounded apart: no FFMA contracted here
  for (int k = 0; k < iterations; ++k) value = fmaf(value, scale, 0.5f);
  y[i] = value;
}
"""


def teardown_module():
    with open(os.path.join(OUT, "cupy_kernels_summary.json"), "w") as summary:
        json.dump(SUMMARY, summary, indent=1, default=str)


def test_a_cupy_elementwise_kernel_is_one_row_per_launch_with_its_arrays_dram_bytes():
    double = cupy.ElementwiseKernel("float32 x", "float32 y", "y = x * 2.0f", "opengpa_double")
    x = cupy.random.random(1 << 28, dtype=cupy.float32)  # 1 GiB, 20x the L2
    y = cupy.empty_like(x)
    double(x, y)
    cupy.cuda.Device().synchronize()
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"], per_kernel=True) as p:
        double(x, y)
        double(y, x)
    rows = p.results
    print(f"\ncupy {cupy.__version__}\n" + rows.to_dataframe().drop(columns=["context"]).to_string())
    read = rows["FetchSize"] * 1024 / x.nbytes
    written = rows["WriteSize"] * 1024 / x.nbytes
    SUMMARY["elementwise"] = {"cupy": cupy.__version__, "kernels": rows.kernels, "grids": rows.grids,
                              "blocks": rows.blocks, "read_ratio": read.tolist(), "write_ratio": written.tolist(),
                              "gputime_ns": rows["GPUTime"].tolist()}
    assert len(rows) == 2 and all(name == "opengpa_double" for name in rows.kernels), rows.kernels
    assert read == pytest.approx([1.0, 1.0], rel=0.02)
    assert written == pytest.approx([1.0, 1.0], rel=0.05)  # up to an L2 (50 MB, 4.7%) may stay dirty at the end


def test_a_cupy_raw_kernels_ffma_count_is_exact_per_launch():
    kernel = cupy.RawKernel(RAW_SOURCE, "ffma_chain")
    n, iterations, block = 1 << 20, 1000, 256
    x = cupy.random.random(n, dtype=cupy.float32)
    y = cupy.empty_like(x)
    grid = (n + block - 1) // block

    def step():
        kernel((grid,), (block,), (x, y, cupy.int32(n), cupy.int32(iterations)))
        kernel((grid // 2,), (block,), (x, y, cupy.int32(n // 2), cupy.int32(iterations // 2)))

    step()
    cupy.cuda.Device().synchronize()
    with opengpa.profile(["GPUTime", "FFMAThreadInstructions", FFMA, "FetchSize"], per_kernel=True) as p:
        p.run(step)
    rows = p.results
    print(f"{p.replay} replay, {p.pass_count} pass(es)\n" + rows.to_dataframe().drop(columns=["context"]).to_string())
    SUMMARY["raw_kernel"] = {"replay": p.replay, "passes": p.pass_count, "kernels": rows.kernels,
                             "grids": rows.grids, "ffma": rows[FFMA].tolist(),
                             "ffma_gpa": rows["FFMAThreadInstructions"].tolist(),
                             "fetch_kb": rows["FetchSize"].tolist(), "gputime_ns": rows["GPUTime"].tolist()}
    assert rows.kernels == ["ffma_chain", "ffma_chain"]
    assert rows.grids == [(grid, 1, 1), (grid // 2, 1, 1)]
    assert rows[FFMA].tolist() == [n * iterations, (n // 2) * (iterations // 2)]
    assert rows["FFMAThreadInstructions"].tolist() == [n * iterations, (n // 2) * (iterations // 2)]
    assert rows["FetchSize"][0] == pytest.approx(n * 4 / 1024, rel=0.02)
