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


def test_records_become_a_dataframe_one_row_per_record_with_utc_times():
    records = [opengpa.Record(1_700_000_000_000_000_000, 0, 0, "power_watts", 120.5),
               opengpa.Record(1_700_000_000_100_000_000, 100_000_000, 0, "energy_joules", 12.0)]
    frame = opengpa.records_to_dataframe(records)
    assert list(frame.columns) == ["time", "device", "counter", "value", "duration_ns"]
    assert list(frame["counter"]) == ["power_watts", "energy_joules"]
    assert str(frame["time"][1]) == "2023-11-14 22:13:20.100000+00:00"
    assert frame["duration_ns"][1] == 100_000_000
