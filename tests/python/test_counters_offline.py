"""Counters listed, described and planned with no GPU, through the same C libraries C programs load."""

import subprocess
import sys

import pytest

import opengpa
from conftest import PROJECT_VERSION, REPOSITORY, catalog_counters

CUDA_CATALOGS = ("cuda.json", "cuda_sol.json")
DEFAULT_GROUPS = ("Timing", "General", "GlobalMemory", "MemoryCache")


def test_importing_opengpa_loads_no_library_and_needs_no_gpu():
    code = "import opengpa, opengpa._library as l; assert not l._loaded, l._loaded; print(opengpa.__version__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPOSITORY / "python"), "PATH": "/usr/bin:/bin",
                               "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == PROJECT_VERSION  # CMakeLists.txt's, as the CLI and the .deb say


@pytest.mark.parametrize("chip", ["GH100", "AD102", "GA100"])
def test_an_offline_chip_lists_the_cuda_catalogs_counters_with_their_formulas(chip):
    with opengpa.open_context(chip=chip) as context:
        counters = context.counters
        assert context.device_name == f"NVIDIA {chip} (offline)"
    catalog = catalog_counters(*CUDA_CATALOGS)
    names = [c.name for c in counters]
    assert len(names) == len(set(names)), "each counter once, a fallback formula replacing its preferred one"
    assert set(names) <= {name for name, _, _ in catalog}
    assert {"GPUTime", "FetchSize", "L2CacheHit", "SOL_SM"} <= set(names)
    assert [c.index for c in counters] == list(range(len(counters)))
    for counter in counters:
        # The formula the library evaluates is one of the catalog's entries for that name and group.
        assert (counter.name, counter.group, counter.formula) in catalog, counter


def test_chip_and_api_names_match_in_any_case_as_on_the_command_line():
    # The CLI takes --chip gh100 and --api VK; so does Python (issue 30).
    with opengpa.open_context(chip="gh100") as context:
        assert context.device_name == "NVIDIA GH100 (offline)"
    assert [c.name for c in opengpa.list_counters(api="VK")] == [c.name for c in opengpa.list_counters(api="vulkan")]


def test_describe_gives_the_counters_group_type_usage_and_formula():
    counter = opengpa.describe("fetchsize", chip="GH100")  # case-insensitive, as GpaGetCounterIndex
    assert counter.name == "FetchSize"
    assert (counter.group, counter.data_type, counter.usage) == ("GlobalMemory", "float64", "kilobytes")
    assert counter.formula == "dram__bytes_read.sum / 1024"
    assert "DRAM" in counter.description


def test_describing_an_unknown_counter_raises_key_error_naming_it():
    with pytest.raises(KeyError, match="NoSuchCounter"):
        opengpa.describe("NoSuchCounter", chip="GH100")


def test_hardware_counters_appear_after_the_derived_ones_with_cuptis_units():
    with opengpa.open_context(chip="GH100", hardware=True) as context:
        counters = context.counters
    derived = opengpa.list_counters(chip="GH100")
    assert [c.name for c in counters[: len(derived)]] == [c.name for c in derived]
    dram = next(c for c in counters if c.name == "dram__bytes_read.sum")
    assert (dram.hardware_unit, dram.usage, dram.data_type) == ("dram", "bytes", "uint64")
    assert len(counters) > 10000  # every base metric with its rollups (14,619 on GH100 with CUDA 13.0)


# Pass counts of CUPTI 13.0's scheduler, pinned in tests/cuda/cuda_catalog_api_test.cc and docs/cuda.md.
@pytest.mark.parametrize("chip, groups, passes", [
    ("GH100", DEFAULT_GROUPS, 1), ("AD102", DEFAULT_GROUPS, 1), ("GA100", DEFAULT_GROUPS, 2),
    ("GH100", ("ComputeShader",), 3), ("GA100", ("ComputeShader",), 2), ("GH100", ("MemoryCacheSectors",), 2),
])
def test_plan_passes_gives_cuptis_pass_count_for_a_chip(chip, groups, passes):
    with opengpa.open_context(chip=chip) as context:
        names = [c.name for c in context.counters if c.group in groups]
        plan = context.plan_passes(names)
    assert plan.counters == tuple(names)
    assert plan.pass_count == passes


def test_planning_an_unknown_counter_raises_counter_not_found():
    with pytest.raises(opengpa.OpenGpaError) as raised:
        opengpa.plan_passes(["GPUTime", "NoSuchCounter"], chip="GH100")
    assert raised.value.status_name == "kGpaStatusErrorCounterNotFound"
    assert raised.value.function == "GpaGetCounterIndex"


def test_planning_no_counters_is_a_value_error():
    with pytest.raises(ValueError, match="at least one"):
        opengpa.plan_passes([], chip="GH100")


def test_an_unknown_chip_is_refused_with_the_librarys_reason():
    with pytest.raises(opengpa.OpenGpaError) as raised:
        opengpa.list_counters(chip="NOTACHIP")
    error = raised.value
    assert (error.function, error.status_name) == ("GpaOpenContext", "kGpaStatusErrorHardwareNotSupported")
    assert any("NOTACHIP" in line and "GH100" in line for line in error.log), error.log


@pytest.mark.parametrize("api, catalog", [("vulkan", "vulkan.json"), ("opengl", "opengl.json"),
                                          ("opencl", "opencl.json")])
def test_the_counter_library_lists_an_apis_catalog_in_one_pass(api, catalog):
    counters = opengpa.list_counters(api=api)
    assert [c.name for c in counters] == list(dict.fromkeys(name for name, _, _ in catalog_counters(catalog)))
    assert counters[0].name == "GPUTime" and counters[0].usage == "nanoseconds"
    assert opengpa.plan_passes([c.name for c in counters], api=api).pass_count == 1


def test_an_nvidia_board_by_pci_id_has_the_chips_counters_and_passes():
    # 0x2330 is the H100 SXM5 (src/counter_library/nvidia_device_ids.cc): the GH100 chip context's answers.
    by_board = opengpa.list_counters(api="cuda", device_id=0x2330)
    by_chip = opengpa.list_counters(chip="GH100")
    assert [(c.name, c.usage) for c in by_board] == [(c.name, c.usage) for c in by_chip]
    names = [c.name for c in by_chip if c.group == "ComputeShader"]
    assert opengpa.plan_passes(names, api="cuda", device_id=0x2330).pass_count == 3


@pytest.mark.parametrize("api, catalog", [("vulkan", "vulkan.json"), ("opengl", "opengl.json")])
def test_an_nvidia_board_on_vulkan_or_opengl_has_the_samplers_counters_and_passes(api, catalog):
    # 0x2330 (H100 SXM5): GH100's GPU periodic sampler through PerfWorks' host library, no GPU.
    names = [c.name for c in opengpa.list_counters(api=api, device_id=0x2330)]
    graphics = [name for name, _, _ in catalog_counters("nvidia_graphics.json")]
    assert {"GPUBusy", "PSBusy", "VSWarps", "CSThreadGroups", "FetchSize", "SOL_SM", "GPUBottleneck"} <= set(names)
    assert set(names) <= set(graphics) | {name for name, _, _ in catalog_counters(catalog)}
    # Vertex and pixel shader threads cannot be sampled together on GH100: two passes, as on the H100.
    assert opengpa.plan_passes(["VSWarps", "PSWarps"], api=api, device_id=0x2330).pass_count == 2
    # The timing counters take a pass of their own after the sampler's (src/backends/common/timing_pass.h).
    assert opengpa.plan_passes(["GPUTime"], api=api, device_id=0x2330).pass_count == 1
    assert opengpa.plan_passes(["GPUTime", "VSWarps"], api=api, device_id=0x2330).pass_count == 2
    assert opengpa.plan_passes(["GPUTime", "VSWarps", "PSWarps"], api=api, device_id=0x2330).pass_count == 3
    hardware = [c.name for c in opengpa.list_counters(api=api, device_id=0x2330, hardware=True)]
    assert "sm__threads_launched_shader_ps_killmask_off.sum" in hardware


def test_an_unknown_board_is_refused_with_hardware_not_supported():
    with pytest.raises(opengpa.OpenGpaError) as raised:
        opengpa.list_counters(api="cuda", device_id=0x0001)
    assert raised.value.status_name == "kGpaStatusErrorHardwareNotSupported"


def test_a_chip_with_an_api_other_than_cuda_is_a_value_error():
    with pytest.raises(ValueError, match="chip="):
        opengpa.open_context(chip="GH100", api="vulkan")


def test_a_live_cuda_context_without_a_driver_says_to_open_a_chip_instead(monkeypatch):
    from opengpa import _cuda
    monkeypatch.setattr(_cuda, "_driver", None)
    monkeypatch.setattr(_cuda, "DRIVER_LIBRARY", "libcuda-absent-for-this-test.so.1")
    with pytest.raises(opengpa.OpenGpaError) as raised:
        opengpa.list_counters()
    assert raised.value.status_name == "kGpaStatusErrorDriverNotSupported"
    assert "chip='GH100'" in str(raised.value)
