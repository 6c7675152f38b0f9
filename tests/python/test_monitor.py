"""The real-time monitor through libOpenGPAMonitor.so. CI has no NVIDIA driver: these pin the statuses and
messages Python gets; records and the endpoint are checked on the H100 (tests/device/python)."""

import pytest

import opengpa


def test_a_monitor_without_nvml_is_refused_with_lib_load_failed_naming_the_library():
    with pytest.raises(opengpa.OpenGpaError) as raised:
        opengpa.Monitor(["gpu_utilization_percent"], nvml_library="libopengpa-absent-nvml-for-python.so.1")
    error = raised.value
    assert (error.function, error.status_name) == ("OpenGpaMonitorCreate", "kGpaStatusErrorLibLoadFailed")
    assert any("libopengpa-absent-nvml-for-python.so.1" in line for line in error.log), error.log


def test_an_unknown_monitor_counter_is_refused_naming_it():
    with pytest.raises(opengpa.OpenGpaError) as raised:
        opengpa.Monitor(["no_such_counter"], nvml_library="libopengpa-absent-nvml-for-python.so.1")
    assert raised.value.status_name == "kGpaStatusErrorCounterNotFound"
    assert any("unknown counter 'no_such_counter'" in line for line in raised.value.log), raised.value.log


def test_an_interval_below_ten_milliseconds_is_refused():
    with pytest.raises(opengpa.OpenGpaError) as raised:
        opengpa.Monitor(["gpu_utilization_percent"], interval_ms=5)
    assert raised.value.status_name == "kGpaStatusErrorInvalidParameter"
    assert any("interval 5 ms" in line for line in raised.value.log), raised.value.log
