"""Profiling regions and multi-pass replay, through the exported functions of libGPUPerfAPITest.so (the
fake backend, built like a real GPA library, whose hardware counter h reads FakeHardwareValue(h, slot) only
in the pass that collects it) and, without a GPU, libGPUPerfAPICUDA.so's offline refusal."""

import numpy as np
import pytest

import opengpa
from conftest import fake_profile
from fake_device import FakeDevice, hardware_value

COUNTERS = ["FakeTotalWork", "FakeBytesPerItem", "FakeTimeMs"]


def expected_row(slot):
    items = hardware_value("FakeItems", slot)
    return [hardware_value("FakeCycles", slot) + items, hardware_value("FakeBytes", slot) / items,
            hardware_value("FakeTime", slot) / 1e6]


def test_regions_inside_the_with_block_are_samples_with_the_counters_values(fake_context):
    with fake_profile(COUNTERS, fake_context) as p:
        assert p.pass_count == 1
        for name in ("load", "compute", "store"):
            with opengpa.region(name):
                pass
    results = p.results
    assert results.regions == ["load", "compute", "store"]
    assert results.counter_names == COUNTERS
    assert results.values.dtype == np.float64 and results.values.shape == (3, 3)
    np.testing.assert_allclose(results.values, [expected_row(slot) for slot in range(3)], rtol=1e-12)
    np.testing.assert_allclose(results["FakeTotalWork"], [expected_row(s)[0] for s in range(3)])
    assert results.region("compute")["FakeTimeMs"] == pytest.approx(expected_row(1)[2])


def test_a_multi_pass_set_is_replayed_by_run_once_per_pass_and_every_value_is_collected():
    device = FakeDevice.make(block_limit=1)  # one counter of a block per pass: FakeCycles+FakeItems need 2
    calls = []
    with opengpa.GpaContext("libGPUPerfAPITest.so", device) as context, fake_profile(COUNTERS, context) as p:
        assert p.pass_count == 2

        def step():
            calls.append("step")
            for name in ("a", "b"):
                with opengpa.region(name):
                    pass
            return len(calls)

        assert p.run(step, setup=lambda: calls.append("setup")) == 4
    assert calls == ["setup", "step", "setup", "step"]
    assert p.results.pass_count == 2
    # A counter collected in pass 1 only reads its value if pass 1 recorded the same samples.
    np.testing.assert_allclose(p.results.values, [expected_row(0), expected_row(1)], rtol=1e-12)
    assert device.sessions_alive == 0 and device.command_lists_alive == 0


def test_run_with_a_name_measures_each_call_of_the_step_as_one_region(fake_context):
    with fake_profile(COUNTERS, fake_context) as p:
        p.run(lambda: None, name="whole step")
    assert p.results.regions == ["whole step"]
    np.testing.assert_allclose(p.results.values, [expected_row(0)])


def test_a_step_that_enters_no_region_is_refused_with_what_to_do(fake_context):
    with pytest.raises(opengpa.OpenGpaError, match="name='step'"):
        with fake_profile(COUNTERS, fake_context) as p:
            p.run(lambda: None)


def test_passes_that_enter_different_regions_are_refused():
    device = FakeDevice.make(block_limit=1)
    names = iter([["a", "b"], ["a"]])

    def step():
        for name in next(names):
            with opengpa.region(name):
                pass

    with opengpa.GpaContext("libGPUPerfAPITest.so", device) as context:
        with pytest.raises(opengpa.OpenGpaError, match="same regions"):
            with fake_profile(COUNTERS, context) as p:
                p.run(step)
    assert device.sessions_alive == 0


def test_a_bare_region_of_a_multi_pass_set_says_to_use_run():
    device = FakeDevice.make(block_limit=1)
    with opengpa.GpaContext("libGPUPerfAPITest.so", device) as context:
        with pytest.raises(opengpa.OpenGpaError, match=r"need 2 passes.*p\.run"):
            with fake_profile(COUNTERS, context):
                with opengpa.region("x"):
                    pass


def test_run_refuses_a_set_needing_more_passes_than_allowed_before_running_anything():
    device = FakeDevice.make(block_limit=1)
    calls = []
    with opengpa.GpaContext("libGPUPerfAPITest.so", device) as context:
        with pytest.raises(opengpa.OpenGpaError) as raised:
            with fake_profile(COUNTERS, context) as p:
                p.run(lambda: calls.append(1), passes=1, name="s")
    assert raised.value.status_name == "kGpaStatusErrorNotEnoughPasses"
    assert calls == []


def test_nested_regions_are_refused_because_samples_do_not_nest(fake_context):
    with pytest.raises(opengpa.OpenGpaError, match="do not nest"):
        with fake_profile(COUNTERS, fake_context):
            with opengpa.region("outer"):
                with opengpa.region("inner"):
                    pass


def test_a_region_outside_any_profile_runs_its_block_and_records_nothing():
    ran = []
    with opengpa.region("unprofiled"):
        ran.append(True)
    assert ran == [True]


def test_an_unknown_counter_is_refused_when_the_profile_starts(fake_context):
    with pytest.raises(opengpa.OpenGpaError) as raised:
        with fake_profile(["FakeTotalWork", "Nope"], fake_context):
            pass
    assert raised.value.status_name == "kGpaStatusErrorCounterNotFound"


def test_an_exception_in_the_block_propagates_and_leaves_no_session(fake_device, fake_context):
    with pytest.raises(ZeroDivisionError):
        with fake_profile(COUNTERS, fake_context):
            with opengpa.region("boom"):
                1 / 0
    assert fake_device.sessions_alive == 0 and fake_device.command_lists_alive == 0


def test_results_become_a_dataframe_with_a_region_column_and_units(fake_context):
    with fake_profile(COUNTERS, fake_context) as p:
        with opengpa.region("only"):
            pass
    frame = p.results.to_dataframe()
    assert list(frame.columns) == ["region"] + COUNTERS
    assert frame.loc[0, "region"] == "only"
    assert frame.loc[0, "FakeTotalWork"] == expected_row(0)[0]
    assert frame.attrs["units"] == {"FakeTotalWork": "items", "FakeBytesPerItem": "ratio",
                                    "FakeTimeMs": "milliseconds"}
    assert "FakeTotalWork [items]" in repr(p.results)


def test_profiling_on_an_offline_chip_context_is_refused_at_the_session_start():
    with opengpa.open_context(chip="GH100") as context:
        with pytest.raises(opengpa.OpenGpaError) as raised:
            with opengpa.profile(["GPUTime"], context=context):
                pass
    assert (raised.value.function, raised.value.status_name) == ("GpaBeginSession",
                                                                 "kGpaStatusErrorHardwareNotSupported")
    assert any("offline" in line for line in raised.value.log), raised.value.log


def test_a_catalog_context_cannot_record_samples():
    with opengpa.open_context(api="vulkan") as context:
        with pytest.raises(TypeError, match="offline catalogs"):
            opengpa.profile(["GPUTime"], context=context)
