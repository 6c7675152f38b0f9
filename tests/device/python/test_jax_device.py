"""Regions around JAX work (its own process; XLA's preallocation off so that it takes only what it uses)."""

import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pytest  # noqa: E402

import opengpa  # noqa: E402


def test_a_jitted_jax_elementwise_ops_dram_bytes_equal_its_arrays_sizes():
    x = jax.random.uniform(jax.random.PRNGKey(0), (1 << 28,), dtype=jnp.float32)  # 1 GiB
    double = jax.jit(lambda v: v * 2.0)
    double(x).block_until_ready()  # compile outside the profile
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"]) as p:
        with opengpa.region("jax double"):
            double(x).block_until_ready()
    row = p.results.region("jax double")
    size = x.size * 4
    read, written = row["FetchSize"] * 1024 / size, row["WriteSize"] * 1024 / size
    print(f"\njax {jax.__version__} on {jax.devices()[0]}: read {read:.5f}, wrote {written:.5f} of {size} B, "
          f"GPUTime {row['GPUTime']:.0f} ns")
    assert read == pytest.approx(1.0, rel=0.02)
    assert written == pytest.approx(1.0, rel=0.05)
