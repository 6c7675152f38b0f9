"""The real-time monitor (include/gpu_performance_api/opengpa_monitor.h) from Python.

NVML device counters and CUPTI PM-sampling counters sampled by libOpenGPAMonitor.so's own thread, with no
replay: `Monitor.records()` iterates the records as they arrive, `serve_metrics()` starts the Prometheus
endpoint, `metrics_text()` is its exposition.

    with opengpa.Monitor(["gpu_utilization_percent", "power_watts"], interval_ms=100) as monitor:
        port = monitor.serve_metrics("127.0.0.1:0")         # GET http://127.0.0.1:<port>/metrics
        for record in monitor.records(seconds=2):
            print(record.counter, record.value)
"""

from __future__ import annotations

import ctypes
import time
from ctypes import POINTER, c_char_p, c_double, c_int, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Union

from . import _library


class _Record(ctypes.Structure):
    _fields_ = [("timestamp_ns", c_uint64), ("duration_ns", c_uint64), ("device_index", c_uint32),
                ("counter_index", c_uint32), ("value", c_double)]


class _Config(ctypes.Structure):
    _fields_ = [("struct_size", c_uint32), ("interval_ms", c_uint32), ("device_indices", POINTER(c_uint32)),
                ("device_count", c_uint32), ("counter_names", POINTER(c_char_p)), ("counter_count", c_uint32),
                ("pm_interval_ns", c_uint64), ("pm_hardware_buffer_bytes", c_uint64),
                ("record_capacity", c_uint32), ("nvml_library", c_char_p), ("cupti_library", c_char_p),
                ("callback", c_void_p), ("callback_user_data", c_void_p)]


class _CounterInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("description", c_char_p), ("unit", c_char_p), ("kind", c_int),
                ("origin", c_int)]


class _DeviceInfo(ctypes.Structure):
    _fields_ = [("index", c_uint32), ("uuid", c_char_p), ("name", c_char_p)]


_SIGNATURES = {
    "OpenGpaMonitorRegisterLoggingCallback": ([c_int, _library.LoggingCallback], c_int),
    "OpenGpaMonitorCreate": ([POINTER(_Config), POINTER(c_void_p)], c_int),
    "OpenGpaMonitorDestroy": ([c_void_p], c_int),
    "OpenGpaMonitorGetCounterCount": ([c_void_p, POINTER(c_uint32)], c_int),
    "OpenGpaMonitorGetCounterInfo": ([c_void_p, c_uint32, POINTER(_CounterInfo)], c_int),
    "OpenGpaMonitorGetDeviceCount": ([c_void_p, POINTER(c_uint32)], c_int),
    "OpenGpaMonitorGetDeviceInfo": ([c_void_p, c_uint32, POINTER(_DeviceInfo)], c_int),
    "OpenGpaMonitorStart": ([c_void_p], c_int),
    "OpenGpaMonitorStop": ([c_void_p], c_int),
    "OpenGpaMonitorRead": ([c_void_p, POINTER(_Record), c_uint32, POINTER(c_uint32)], c_int),
    "OpenGpaMonitorGetDroppedRecordCount": ([c_void_p, POINTER(c_uint64)], c_int),
    "OpenGpaMonitorWriteMetricsText": ([c_void_p, c_uint8, c_char_p, POINTER(c_uint32)], c_int),
    "OpenGpaMonitorServeMetrics": ([c_void_p, c_char_p, POINTER(c_uint16)], c_int),
}

_KINDS = ("gauge", "delta")
_ORIGINS = ("nvml", "cupti_pm_sampling", "other", "nvml_gpm")


@dataclass(frozen=True)
class MonitorCounter:
    """One counter the monitor samples, as libOpenGPAMonitor.so describes it."""

    name: str
    description: str
    unit: str
    kind: str  # "gauge" (a reading) or "delta" (an amount over the record's interval)
    origin: str  # "nvml", "nvml_gpm", "cupti_pm_sampling" or "other"


@dataclass(frozen=True)
class Record:
    """One value of one counter on one GPU, over the interval ending at `timestamp_ns` (Unix epoch)."""

    timestamp_ns: int
    duration_ns: int
    device: int
    counter: str
    value: float


def records_to_dataframe(records: Iterable[Record]) -> Any:
    """Records as a pandas DataFrame: time (a UTC timestamp), device, counter, value, duration_ns; with
    `.pivot_table(index="time", columns="counter", values="value")` one column per counter."""
    try:
        import pandas
    except ImportError:
        raise ImportError("records_to_dataframe needs pandas (Debian: apt-get install python3-pandas)") from None
    records = list(records)
    return pandas.DataFrame({
        "time": pandas.to_datetime([r.timestamp_ns for r in records], unit="ns", utc=True),
        "device": [r.device for r in records],
        "counter": [r.counter for r in records],
        "value": [r.value for r in records],
        "duration_ns": [r.duration_ns for r in records],
    })


def _decode(text):
    return text.decode("utf-8", "replace") if text else ""


class Monitor:
    """OpenGpaMonitorCreate .. Destroy. Counter names as opengpa_monitor.h's (docs/realtime.md): NVML
    counters, GPM counters, CUPTI metric names, "nvml", "gpm" or "pm"; None: every NVML counter and, where
    the GPUs have it, every GPM counter."""

    def __init__(self, counters: Optional[Union[str, Sequence[str]]] = None, interval_ms: int = 1000,
                 devices: Optional[Sequence[int]] = None, pm_interval_ns: int = 0, record_capacity: int = 0,
                 nvml_library: Optional[str] = None, cupti_library: Optional[str] = None) -> None:
        """OpenGpaMonitorCreate with these settings (opengpa_monitor.h's OpenGpaMonitorConfig): `devices` GPU
        indices (None: all), `pm_interval_ns` the PM sampler's period (0: its default), `record_capacity` the
        ring buffer's records (0: its default), `nvml_library`/`cupti_library` paths overriding the loader's."""
        self.library = _library.load("libOpenGPAMonitor.so", _SIGNATURES,
                                     register_logging="OpenGpaMonitorRegisterLoggingCallback")
        self.handle = c_void_p()
        names = [name.encode() for name in ([counters] if isinstance(counters, str) else counters or [])]
        self._names = (c_char_p * len(names))(*names) if names else None
        indices = list(devices or [])
        self._devices = (c_uint32 * len(indices))(*indices) if indices else None
        config = _Config()
        config.struct_size = ctypes.sizeof(_Config)
        config.interval_ms = interval_ms
        config.device_indices = self._devices
        config.device_count = len(indices)
        config.counter_names = self._names
        config.counter_count = len(names)
        config.pm_interval_ns = pm_interval_ns
        config.record_capacity = record_capacity
        config.nvml_library = nvml_library.encode() if nvml_library else None
        config.cupti_library = cupti_library.encode() if cupti_library else None
        self.library.call("OpenGpaMonitorCreate", ctypes.byref(config), ctypes.byref(self.handle))
        self.counters = [self._counter(i) for i in range(self._count("OpenGpaMonitorGetCounterCount"))]
        self.devices = [self._device(i) for i in range(self._count("OpenGpaMonitorGetDeviceCount"))]
        self.interval_ms = interval_ms
        self._running = False

    def _count(self, function):
        count = c_uint32()
        self.library.call(function, self.handle, ctypes.byref(count))
        return count.value

    def _counter(self, index):
        info = _CounterInfo()
        self.library.call("OpenGpaMonitorGetCounterInfo", self.handle, index, ctypes.byref(info))
        return MonitorCounter(_decode(info.name), _decode(info.description), _decode(info.unit),
                              _KINDS[info.kind] if info.kind < len(_KINDS) else str(info.kind),
                              _ORIGINS[info.origin] if info.origin < len(_ORIGINS) else str(info.origin))

    def _device(self, index):
        info = _DeviceInfo()
        self.library.call("OpenGpaMonitorGetDeviceInfo", self.handle, index, ctypes.byref(info))
        return {"index": info.index, "uuid": _decode(info.uuid), "name": _decode(info.name)}

    def start(self) -> None:
        """Starts the sampler thread (entering the with block does it)."""
        self.library.call("OpenGpaMonitorStart", self.handle)
        self._running = True

    def stop(self) -> None:
        """Stops the sampler thread; records already taken stay readable."""
        self.library.call("OpenGpaMonitorStop", self.handle)
        self._running = False

    def close(self) -> None:
        """Stops and destroys the monitor (leaving the with block does it); closing twice does nothing."""
        if getattr(self, "handle", None) and self.handle.value:
            self.library.call("OpenGpaMonitorDestroy", self.handle)
            self.handle = c_void_p()
            self._running = False

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def read(self, capacity: int = 4096) -> List[Record]:
        """The oldest unread records, at most `capacity`, as Record values (possibly none)."""
        buffer = (_Record * capacity)()
        count = c_uint32()
        self.library.call("OpenGpaMonitorRead", self.handle, buffer, capacity, ctypes.byref(count))
        return [Record(r.timestamp_ns, r.duration_ns, r.device_index, self.counters[r.counter_index].name, r.value)
                for r in buffer[: count.value]]

    def records(self, seconds: Optional[float] = None, count: Optional[int] = None) -> Iterator[Record]:
        """Iterates records as the sampler thread produces them, until `seconds` have passed or `count`
        records came (forever when neither is given); starts the monitor if it is not running."""
        if not self._running:
            self.start()
        deadline = None if seconds is None else time.monotonic() + seconds
        given = 0
        while deadline is None or time.monotonic() < deadline:
            batch = self.read()
            for record in batch:
                yield record
                given += 1
                if count is not None and given >= count:
                    return
            if not batch:
                time.sleep(min(self.interval_ms / 2000.0, 0.05))

    @property
    def dropped_records(self) -> int:
        """How many records the ring buffer dropped because nobody read them in time."""
        dropped = c_uint64()
        self.library.call("OpenGpaMonitorGetDroppedRecordCount", self.handle, ctypes.byref(dropped))
        return dropped.value

    def metrics_text(self, openmetrics: bool = False) -> str:
        """The latest values as Prometheus text (or OpenMetrics 1.0)."""
        size = c_uint32(0)
        self.library.call("OpenGpaMonitorWriteMetricsText", self.handle, int(openmetrics), None, ctypes.byref(size))
        buffer = ctypes.create_string_buffer(size.value)
        self.library.call("OpenGpaMonitorWriteMetricsText", self.handle, int(openmetrics), buffer, ctypes.byref(size))
        return buffer.value.decode("utf-8", "replace")

    def serve_metrics(self, listen_address: str = "127.0.0.1:0") -> int:
        """Serves GET /metrics on `listen_address` until the monitor is closed; returns the bound port."""
        port = c_uint16()
        self.library.call("OpenGpaMonitorServeMetrics", self.handle, listen_address.encode(), ctypes.byref(port))
        return port.value
