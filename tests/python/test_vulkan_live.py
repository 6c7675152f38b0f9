"""A live Vulkan context from Python on the machine's Vulkan driver: lavapipe in CI (no GPU)."""

import pytest

import opengpa


def test_a_live_vulkan_context_on_lavapipe_lists_what_the_driver_exposes():
    # CI's Vulkan device is Mesa's lavapipe (scripts/check_software_gpus.sh makes sure it is there).
    with opengpa.open_context(api="vulkan", live=True) as context:
        assert "llvmpipe" in context.device_name
        names = context.counter_names()
        assert names == [c.name for c in opengpa.list_counters(api="vulkan")]  # lavapipe has every feature
        assert context.plan_passes(names).pass_count == 1
    with opengpa.open_context(api="vulkan", live=True, hardware=True) as context:
        hardware = [c for c in context.counters if c.name not in names]
        assert hardware, "the pipeline statistics and timestamps behind the catalog"


def test_live_is_refused_for_an_api_python_cannot_open():
    with pytest.raises(ValueError, match="CUDA or Vulkan"):
        opengpa.open_context(api="opencl", live=True)
