"""The real-time monitor through libOpenGPAMonitor.so. CI has no NVIDIA driver: these pin the statuses and
messages Python gets, and follow tests/monitor's fake NVML (a fixed power draw) through the records iterator
and the Prometheus endpoint; the real counters are checked on the H100 (tests/device/python)."""

import os
import urllib.request

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


FAKE_NVML = os.environ.get("OPENGPA_FAKE_NVML")
needs_fake_nvml = pytest.mark.skipif(not FAKE_NVML, reason="OPENGPA_FAKE_NVML (tests/monitor's fake NVML) not set")


@needs_fake_nvml
def test_records_come_from_the_iterator_as_the_sampler_reads_them():
    # tests/monitor/fake_nvml.c (FAKE_NVML_FIXED_POWER): one device drawing 123456 mW.
    with opengpa.Monitor(["power_watts"], interval_ms=20, nvml_library=FAKE_NVML) as monitor:
        records = list(monitor.records(seconds=10, count=3))
    assert [(r.counter, r.device, r.value) for r in records] == [("power_watts", 0, 123.456)] * 3
    assert records[0].timestamp_ns < records[1].timestamp_ns < records[2].timestamp_ns


@needs_fake_nvml
def test_the_prometheus_endpoint_started_from_python_serves_the_latest_values():
    with opengpa.Monitor(["power_watts"], interval_ms=20, nvml_library=FAKE_NVML) as monitor:
        port = monitor.serve_metrics("127.0.0.1:0")
        next(monitor.records(seconds=10, count=1))  # a value has been sampled
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
            body = response.read().decode()
        assert response.status == 200 and port > 0
        line = next(line for line in body.splitlines() if line.startswith("opengpa_power_watts"))
        assert float(line.split()[-1]) == 123.456
        assert line in monitor.metrics_text()
