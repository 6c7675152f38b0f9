"""JAX's kernels as per-kernel rows (its own process: XLA's preallocation off, one CUPTI subscriber)."""

import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pytest  # noqa: E402

import opengpa  # noqa: E402


def test_a_jitted_jax_ops_kernel_rows_read_and_write_its_arrays():
    x = jax.random.uniform(jax.random.PRNGKey(0), (1 << 28,), dtype=jnp.float32)  # 1 GiB
    double = jax.jit(lambda v: v * 2.0)
    double(x).block_until_ready()  # compile outside the profile
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"], per_kernel=True) as p:
        with opengpa.region("jax double"):
            double(x).block_until_ready()
    rows = p.results
    print(f"\njax {jax.__version__}:\n" + rows.to_dataframe().drop(columns=["context"]).to_string())
    size = x.size * 4
    assert len(rows) >= 1 and set(rows.regions) == {"jax double"}
    assert rows["FetchSize"].sum() * 1024 == pytest.approx(size, rel=0.02)
