"""Counters: list, describe and plan passes, live or offline, through the C libraries.

Two kinds of context answer the same questions:

- `GpaContext`: a GPA v3 context of libGPUPerfAPI<X>.so, live on the current CUDA context, or offline for
  a chip CUPTI knows (GpaCudaContextOpenInfo::chip_name, no GPU needed). Its pass counts are
  GpaGetPassCount's; a live one also records samples (profiling.py).
- `CounterLibraryContext`: libGPUPerfAPICounters.so, AMD's offline counter library: the Vulkan, OpenGL and
  OpenCL catalogs, or an NVIDIA board by PCI device id.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_char_p, c_double, c_int, c_uint8, c_uint32, c_uint64, c_void_p
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple, Union

from . import _cuda, _gpa, _library
from ._status import OpenGpaError


@dataclass(frozen=True)
class Counter:
    """One counter as the library describes it."""

    index: int
    name: str
    group: str
    description: str
    data_type: str  # "float64" or "uint64"
    usage: str  # "nanoseconds", "percentage", "bytes", "items", ... (GpaUsageType without its prefix)
    formula: str = ""  # the catalog's formula (OpenGPA extension); "" for hardware counters / offline catalogs
    hardware_unit: str = ""  # CUPTI's unit ("dram", "sm", ...) where the library knows it


@dataclass(frozen=True)
class PassPlan:
    """What collecting `counters` together costs: the library's pass count (GpaGetPassCount)."""

    counters: Tuple[str, ...]
    pass_count: int


class _ContextBase:
    """What both contexts share: a cached counter list, lookup by name, context-manager closing."""

    _counters = None

    @property
    def counters(self) -> List[Counter]:
        """Every counter of the context, in index order (read once, then cached)."""
        if self._counters is None:
            self._counters = [self._describe_index(i) for i in range(self._counter_count())]
        return list(self._counters)

    def counter_names(self) -> List[str]:
        """The names of `counters`, in index order."""
        return [counter.name for counter in self.counters]

    def describe(self, name: str) -> Counter:
        """The Counter called `name` (case-insensitive, as GpaGetCounterIndex); KeyError if none."""
        wanted = name.lower()
        for counter in self.counters:
            if counter.name.lower() == wanted:
                return counter
        raise KeyError(f"{name!r} is not a counter of {self.device_name}")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may already be gone
            pass


class GpaContext(_ContextBase):
    """A GpaOpenContext of one libGPUPerfAPI<X>.so (CUDA here)."""

    def __init__(self, api: str, open_info: Any, hardware: bool = False) -> None:
        """Opens a context of `api`'s library (GpaOpenContext) on `open_info` (the API's open-info structure,
        kept alive while the context is open); `hardware` exposes the raw hardware counters too."""
        self.api = api
        self.library = _gpa.gpa_library(api)
        self._open_info = open_info  # kept alive while the context is open
        flags = _gpa.OPEN_CONTEXT_ENABLE_HARDWARE_COUNTERS if hardware else _gpa.OPEN_CONTEXT_DEFAULT
        self.handle = _gpa.Handle()
        self.library.call("GpaOpenContext", ctypes.cast(ctypes.pointer(open_info), c_void_p), flags,
                          ctypes.byref(self.handle))
        self.device_name = _gpa.get_string(self.library, "GpaGetDeviceName", self.handle)

    @classmethod
    def open_cuda(cls, context: Optional[int] = None, chip: Optional[str] = None, hardware: bool = False,
                  max_samples_per_pass: int = 0, device: int = 0) -> "GpaContext":
        """A CUDA context: offline for `chip` (no GPU), else live on the CUcontext `context` (default the calling
        thread's current one, else device `device`'s primary context)."""
        if context is None and chip is None:
            context = _cuda.current_context(device)
        info = _gpa.GpaCudaContextOpenInfo.make(context, chip, max_samples_per_pass)
        return cls("cuda", info, hardware)

    @classmethod
    def open_vulkan(cls, index: Optional[int] = None, hardware: bool = False) -> "GpaContext":
        """A live context on a Vulkan device this package creates (the best one, or `index`): its counters
        and pass counts; lavapipe where no GPU is present."""
        from ._vulkan import VulkanDevice
        _gpa.gpa_library("vulkan")  # GpaInitialize comes before the device exists (GPA's contract)
        device = VulkanDevice(index)
        try:
            context = cls("vulkan", device.open_info, hardware)
        except Exception:
            device.close()
            raise
        context._vulkan_device = device
        return context

    @property
    def is_open(self) -> bool:
        """Whether the GPA context is still open."""
        return bool(getattr(self, "handle", None) and self.handle.value)

    def close(self) -> None:
        """Closes the context (and the Vulkan device made for it); closing twice does nothing."""
        if self.is_open:
            self.library.call("GpaCloseContext", self.handle)
            self.handle = _gpa.Handle()
        device = getattr(self, "_vulkan_device", None)
        if device is not None:  # after the context: GPA's context uses the device
            device.close()
            self._vulkan_device = None

    def _counter_count(self):
        return _gpa.get_u32(self.library, "GpaGetNumCounters", self.handle)

    def _optional_string(self, function, index):
        if not self.library.has(function):
            return ""
        try:
            return _gpa.get_string(self.library, function, self.handle, index)
        except OpenGpaError:
            return ""  # e.g. a hardware counter has no formula

    def _describe_index(self, index):
        library, handle = self.library, self.handle
        return Counter(
            index=index,
            name=_gpa.get_string(library, "GpaGetCounterName", handle, index),
            group=_gpa.get_string(library, "GpaGetCounterGroup", handle, index),
            description=_gpa.get_string(library, "GpaGetCounterDescription", handle, index),
            data_type=_gpa.DATA_TYPE_NAMES[_gpa.get_enum(library, "GpaGetCounterDataType", handle, index)],
            usage=_gpa.USAGE_NAMES[_gpa.get_enum(library, "GpaGetCounterUsageType", handle, index)],
            formula=self._optional_string("OpenGpaGetCounterFormula", index),
            hardware_unit=self._optional_string("OpenGpaGetCounterHardwareUnit", index),
        )

    def counter_index(self, name: str) -> int:
        """GpaGetCounterIndex: the index of the counter called `name`; OpenGpaError if none."""
        return _gpa.get_u32(self.library, "GpaGetCounterIndex", self.handle, name.encode())

    def describe(self, name: str) -> Counter:
        """The Counter called `name` (case-insensitive, GpaGetCounterIndex); KeyError if none. Looks up
        one counter, so it stays quick with the ~15,000 hardware counters of a chip."""
        if self._counters is not None:
            return super().describe(name)
        try:
            index = self.counter_index(name)
        except OpenGpaError as error:
            raise KeyError(f"{name!r} is not a counter of {self.device_name}: {error}") from None
        return self._describe_index(index)

    def create_session(self, counter_names: Sequence[str]) -> Any:
        """A discrete-counter session with `counter_names` enabled, in that order (caller deletes it)."""
        session = _gpa.Handle()
        self.library.call("GpaCreateSession", self.handle, _gpa.SESSION_SAMPLE_TYPE_DISCRETE_COUNTER,
                          ctypes.byref(session))
        try:
            for name in counter_names:
                self.library.call("GpaEnableCounter", session, self.counter_index(name))
        except Exception:
            self.library.call("GpaDeleteSession", session)
            raise
        return session

    def pass_count(self, counter_names: Union[str, Sequence[str]]) -> int:
        """GpaGetPassCount of a session with `counter_names` enabled: the passes collecting them takes."""
        names = _names(counter_names)
        session = self.create_session(names)
        try:
            return _gpa.get_u32(self.library, "GpaGetPassCount", session)
        finally:
            self.library.call("GpaDeleteSession", session)

    def plan_passes(self, counter_names: Union[str, Sequence[str]]) -> PassPlan:
        """The PassPlan of `counter_names`: the names and the library's pass count for them together."""
        names = _names(counter_names)
        return PassPlan(tuple(names), self.pass_count(names))


# ---- libGPUPerfAPICounters.so -------------------------------------------------------------------------------

class _HardwareInfo(ctypes.Structure):
    _fields_ = [("vendor_id", c_uint32), ("device_id", c_uint32), ("revision_id", c_uint32),
                ("gpa_hardware_attributes", c_void_p), ("gpa_hardware_attribute_count", c_uint32)]


_COUNTER_LIB_SIGNATURES = {
    "OpenGpaCounterLibRegisterLoggingCallback": ([c_int, _library.LoggingCallback], c_int),
    "GpaCounterLibOpenCounterContext": ([c_int, _HardwareInfo, c_int, c_uint8, POINTER(c_void_p)], c_int),
    "GpaCounterLibCloseCounterContext": ([c_void_p], c_int),
    "GpaCounterLibGetNumCounters": ([c_void_p, POINTER(c_uint32)], c_int),
    "GpaCounterLibGetCounterName": ([c_void_p, c_uint32, POINTER(c_char_p)], c_int),
    "GpaCounterLibGetCounterGroup": ([c_void_p, c_uint32, POINTER(c_char_p)], c_int),
    "GpaCounterLibGetCounterDescription": ([c_void_p, c_uint32, POINTER(c_char_p)], c_int),
    "GpaCounterLibGetCounterDataType": ([c_void_p, c_uint32, POINTER(c_int)], c_int),
    "GpaCounterLibGetCounterUsageType": ([c_void_p, c_uint32, POINTER(c_int)], c_int),
    "GpaCounterLibGetPassCount": ([c_void_p, POINTER(c_uint32), c_uint32, POINTER(c_uint32)], c_int),
    "GpaCounterLibComputeDerivedCounterResult":
        ([c_void_p, c_uint32, POINTER(c_uint64), c_uint32, POINTER(c_double)], c_int),
}

COUNTER_LIBRARY_APIS = {"vulkan": _gpa.API_VULKAN, "opengl": _gpa.API_OPENGL, "opencl": _gpa.API_OPENCL,
                        "cuda": _gpa.API_CUDA}


def counter_library() -> Any:
    """libGPUPerfAPICounters.so with its signatures (loaded once, by _library.load)."""
    return _library.load("libGPUPerfAPICounters.so", _COUNTER_LIB_SIGNATURES,
                         register_logging="OpenGpaCounterLibRegisterLoggingCallback")


class CounterLibraryContext(_ContextBase):
    """GpaCounterLibOpenCounterContext: an API's catalog, or an NVIDIA board by PCI id, with no device."""

    def __init__(self, api: str, vendor_id: int = 0, device_id: int = 0, hardware: bool = False) -> None:
        """Opens `api`'s catalog ("vulkan", "opengl", "opencl", "cuda"), for the board (`vendor_id`, `device_id`)
        when given; `hardware` exposes the raw hardware counters too. ValueError for another API."""
        try:
            api_value = COUNTER_LIBRARY_APIS[api]
        except KeyError:
            raise ValueError(f"api {api!r} is not one of {', '.join(COUNTER_LIBRARY_APIS)}") from None
        self.api = api
        self.library = counter_library()
        flags = _gpa.OPEN_CONTEXT_ENABLE_HARDWARE_COUNTERS if hardware else _gpa.OPEN_CONTEXT_DEFAULT
        self.handle = c_void_p()
        self.library.call("GpaCounterLibOpenCounterContext", api_value,
                          _HardwareInfo(vendor_id, device_id, 0, None, 0), flags, 1, ctypes.byref(self.handle))
        self.device_name = f"{api} catalog" if api != "cuda" else f"NVIDIA device 0x{device_id:04X} (offline)"

    def close(self) -> None:
        """Closes the counter context; closing twice does nothing."""
        if getattr(self, "handle", None) and self.handle.value:
            self.library.call("GpaCounterLibCloseCounterContext", self.handle)
            self.handle = c_void_p()

    def _counter_count(self):
        return _gpa.get_u32(self.library, "GpaCounterLibGetNumCounters", self.handle)

    def _describe_index(self, index):
        library, handle = self.library, self.handle
        return Counter(
            index=index,
            name=_gpa.get_string(library, "GpaCounterLibGetCounterName", handle, index),
            group=_gpa.get_string(library, "GpaCounterLibGetCounterGroup", handle, index),
            description=_gpa.get_string(library, "GpaCounterLibGetCounterDescription", handle, index),
            data_type=_gpa.DATA_TYPE_NAMES[_gpa.get_enum(library, "GpaCounterLibGetCounterDataType", handle, index)],
            usage=_gpa.USAGE_NAMES[_gpa.get_enum(library, "GpaCounterLibGetCounterUsageType", handle, index)],
        )

    def pass_count(self, counter_names: Union[str, Sequence[str]]) -> int:
        """GpaCounterLibGetPassCount: the passes collecting `counter_names` together takes."""
        indices = [self.describe(name).index for name in _names(counter_names)]
        array = (c_uint32 * len(indices))(*indices)
        passes = c_uint32()
        self.library.call("GpaCounterLibGetPassCount", self.handle, array, len(indices), ctypes.byref(passes))
        return passes.value

    def plan_passes(self, counter_names: Union[str, Sequence[str]]) -> PassPlan:
        """The PassPlan of `counter_names`: the names and the library's pass count for them together."""
        names = _names(counter_names)
        return PassPlan(tuple(names), self.pass_count(names))


def _names(counter_names):
    if isinstance(counter_names, str):
        counter_names = [counter_names]
    names = list(counter_names)
    if not names:
        raise ValueError("no counters given: name at least one")
    return names


# ---- the module-level face ------------------------------------------------------------------------------

_API_ALIASES = {"vk": "vulkan", "gl": "opengl", "cl": "opencl"}


def _normalized_chip(chip):
    """CUPTI names chips in capitals; any case is accepted (the CLI's --chip gh100)."""
    return chip.upper() if isinstance(chip, str) else chip


def _normalized_api(api):
    """An API name in any case, with the CLI's short names (vk, gl, cl) accepted too."""
    if not isinstance(api, str):
        return api
    return _API_ALIASES.get(api.lower(), api.lower())


def open_context(chip: Optional[str] = None, api: Optional[str] = None, device_id: Optional[int] = None,
                 hardware: bool = False, context: Optional[int] = None, device: int = 0,
                 max_samples_per_pass: int = 0, live: bool = False) -> Union[GpaContext, CounterLibraryContext]:
    """Opens the context that answers counter questions.

    - ``chip="GH100"`` (any chip CUPTI knows): libGPUPerfAPICUDA.so's offline context, no GPU needed;
    - ``api="vulkan" | "opengl" | "opencl"``: libGPUPerfAPICounters.so's catalog for that API;
    - ``api="vulkan", live=True``: libGPUPerfAPIVK.so on a Vulkan device made for it (the best one, or
      ``device``): what that driver exposes (lavapipe where there is no GPU);
    - ``api="cuda", device_id=0x2330``: libGPUPerfAPICounters.so for that NVIDIA board;
    - ``api="vulkan" | "opengl", device_id=0x2330``: the same library's catalog of that API on that NVIDIA board,
      with the GPU periodic sampler's hardware counters of its chip (PerfWorks' host library, no GPU);
    - nothing (or ``context=`` a CUcontext as an int): the live CUDA context, by default the calling
      thread's current one (PyTorch's), else device ``device``'s primary context.

    ``hardware=True`` also exposes every raw hardware counter (kGpaOpenContextEnableHardwareCountersBit).
    Names match in any case, as on the command line: ``chip="gh100"`` is GH100, ``api="VK"`` is ``"vulkan"``.
    """
    chip, api = _normalized_chip(chip), _normalized_api(api)
    if chip is not None and (api not in (None, "cuda") or device_id is not None or context is not None):
        raise ValueError("chip= opens an offline CUDA context: give it without api=, device_id= or context=")
    if chip is not None:
        return GpaContext.open_cuda(chip=chip, hardware=hardware)
    if live and api == "vulkan":
        return GpaContext.open_vulkan(index=device if device else None, hardware=hardware)
    if live and api not in (None, "cuda"):
        raise ValueError(f"live=True opens CUDA or Vulkan contexts, not {api!r}")
    if api in ("vulkan", "opengl", "opencl") or (api == "cuda" and device_id is not None):
        # A device id names an NVIDIA board (vendor 0x10DE), on any API.
        vendor_id = 0x10DE if api == "cuda" or device_id is not None else 0
        return CounterLibraryContext(api, vendor_id, device_id or 0, hardware)
    if api not in (None, "cuda"):
        raise ValueError(f"api {api!r} is not one of cuda, vulkan, opengl, opencl")
    return GpaContext.open_cuda(context=context, hardware=hardware, max_samples_per_pass=max_samples_per_pass,
                                device=device)


def list_counters(*, chip: Optional[str] = None, api: Optional[str] = None, device_id: Optional[int] = None,
                  hardware: bool = False, context: Optional[int] = None, device: int = 0,
                  live: bool = False) -> List[Counter]:
    """Every counter of the context that `open_context` opens with these arguments (its docstring says which):
    `chip="GH100"` offline, `api="vulkan"` a catalog, nothing the live CUDA context, ..."""
    with open_context(chip=chip, api=api, device_id=device_id, hardware=hardware, context=context, device=device,
                      live=live) as opened:
        return opened.counters


def describe(name: str, *, chip: Optional[str] = None, api: Optional[str] = None, device_id: Optional[int] = None,
             hardware: bool = False, context: Optional[int] = None, device: int = 0, live: bool = False) -> Counter:
    """The Counter called `name` (any case) in the context `open_context` opens with the other arguments;
    KeyError if it has none of that name."""
    with open_context(chip=chip, api=api, device_id=device_id, hardware=hardware, context=context, device=device,
                      live=live) as opened:
        return opened.describe(name)


def plan_passes(counter_names: Union[str, Sequence[str]], *, chip: Optional[str] = None, api: Optional[str] = None,
                device_id: Optional[int] = None, hardware: bool = False, context: Optional[int] = None,
                device: int = 0, live: bool = False) -> PassPlan:
    """The PassPlan (names and the library's pass count) of `counter_names` collected together, in the context
    `open_context` opens with the other arguments."""
    with open_context(chip=chip, api=api, device_id=device_id, hardware=hardware, context=context, device=device,
                      live=live) as opened:
        return opened.plan_passes(counter_names)
