"""Profiling Python code: `with opengpa.profile(counters=[...]) as p:` and `opengpa.region(name)`.

The mapping onto GPA v3, which the C library then maps onto CUPTI (docs/cuda.md):

- `profile(...)` opens a GPA context on the current CUDA context (or takes one given), creates a
  discrete-counter session with the counters enabled and begins it; leaving the block ends the session,
  which waits for the GPU, and reads every sample into `p.results`.
- `region(name)` is one sample: GpaBeginSample .. GpaEndSample around the GPU work the block launches
  (on CUDA a CUPTI range: all work of the context between the two calls, in stream order).
- A pass is a command list. When the counters fit in one pass, regions inside the `with` block are
  recorded directly. When they need more (GpaGetPassCount > 1), the same work must run once per pass:
  `p.run(step)` calls `step()` once per pass, each time between GpaBeginCommandList and GpaEndCommandList,
  and checks that every pass entered the same regions. A step that enters no region is one sample named
  after the step.

Regions entered when no profile is active do nothing, so code can keep its regions when not profiled.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, Optional, Sequence, Union

from . import _gpa
from ._regions import _pop_profile, _push_profile, region  # noqa: F401 (region is this module's too)
from ._status import OpenGpaError
from .counters import GpaContext, _names
from .kernels import KernelProfile, check_mode
from .results import Results


class Profile:
    """A GPA session over a context, recording regions into passes. Made by `opengpa.profile`."""

    def __init__(self, counters: Union[str, Sequence[str]], context: Optional[GpaContext] = None,
                 max_samples_per_pass: int = 0, device: int = 0, hardware: Optional[bool] = None,
                 command_list: Any = None, command_list_type: int = _gpa.COMMAND_LIST_NONE) -> None:
        """The arguments of `opengpa.profile` (which says what they do); `command_list` and its type are what
        GpaBeginCommandList takes (CUDA has none: None, COMMAND_LIST_NONE; the fake backend's tests pass one)."""
        self.counter_names = _names(counters)
        self._owns_context = context is None
        if hardware is None:  # raw CUPTI metric names ("dram__bytes_read.sum") need the hardware counters
            hardware = any("__" in name for name in self.counter_names)
        self.context = context if context is not None else GpaContext.open_cuda(
            max_samples_per_pass=max_samples_per_pass, device=device, hardware=hardware)
        if not isinstance(self.context, GpaContext):
            raise TypeError("context must be an opengpa.GpaContext (a live context; offline catalogs cannot "
                            "record samples)")
        self.library = self.context.library
        # What GpaBeginCommandList takes: CUDA has no command lists (GPA_NULL_COMMAND_LIST, None type).
        self._command_list = command_list
        self._command_list_type = command_list_type
        self.session = None
        self.pass_count = 0
        self.results = None
        self._list = None  # the open GpaCommandListId
        self._pass = 0  # the pass being recorded
        self._recorded_passes = 0
        self._pass_regions = []  # region names of the pass being recorded
        self._regions = None  # region names every pass must repeat (those of pass 0)
        self._open_region = None
        self._implicit = False  # regions recorded straight inside the with block (one-pass sets)
        self._ran = False

    # ---- session lifetime ----------------------------------------------------------------------------
    def __enter__(self) -> "Profile":
        try:
            self.session = self.context.create_session(self.counter_names)
            self.pass_count = _gpa.get_u32(self.library, "GpaGetPassCount", self.session)
            self.library.call("GpaBeginSession", self.session)
        except Exception:
            self._release()
            raise
        self._enabled = [self.context.describe(name) for name in self.counter_names]
        _push_profile(self)
        return self

    def __exit__(self, exc_type, exc, traceback):
        _pop_profile(self)
        try:
            if exc_type is None:
                if self._list is not None:
                    self._end_pass()
                self._finish()
            elif self._list is not None:
                # The block's own exception is the one to see: close the pass quietly.
                self._open_region = None
                try:
                    self.library.call("GpaEndCommandList", self._list)
                except OpenGpaError:
                    pass
                self._list = None
        finally:
            self._release()
        return False

    def _release(self):
        if self.session is not None:
            try:
                self.library.call("GpaDeleteSession", self.session)
            except OpenGpaError:
                pass  # the error that brought us here is the one worth raising
            self.session = None
        if self._owns_context:
            self.context.close()

    # ---- passes --------------------------------------------------------------------------------------
    def _begin_pass(self):
        handle = _gpa.Handle()
        self.library.call("GpaBeginCommandList", self.session, self._pass, self._command_list,
                          self._command_list_type, ctypes.byref(handle))
        self._list = handle
        self._pass_regions = []

    def _end_pass(self):
        if self._open_region is not None:
            raise OpenGpaError("opengpa.region", 0, detail=f"region {self._open_region!r} is still open")
        handle, self._list = self._list, None
        self.library.call("GpaEndCommandList", handle)
        if self._regions is None:
            self._regions = self._pass_regions
        elif self._pass_regions != self._regions:
            raise OpenGpaError(
                "opengpa.Profile.run", 0,
                detail=f"pass {self._pass} entered regions {self._pass_regions}, pass 0 entered {self._regions}: "
                "every pass must repeat the same work with the same regions")
        self._pass += 1
        self._recorded_passes += 1

    def run(self, step: Callable[[], Any], passes: Union[str, int] = "auto", setup: Optional[Callable[[], Any]] = None,
            name: Optional[str] = None) -> Any:
        """Calls `step()` once per pass, each call recorded as that pass; returns the last call's value.

        `passes`: "auto" (the library's pass count) or the most passes the caller accepts (an int): a
        counter set that needs more raises before anything runs. `setup()`, if given, runs before each
        pass outside any sample: restore there what the step overwrites, if every pass must see the same
        inputs. `name`: record each call of the step as one region of that name; without it the step
        enters its own regions (opengpa.region), and a step that enters none is refused after pass 0.
        """
        if self._implicit or self._ran:
            raise OpenGpaError("opengpa.Profile.run", 0,
                               detail="a profile records either one run() or regions inside its with block, once")
        if passes != "auto" and int(passes) < self.pass_count:
            raise OpenGpaError(
                "opengpa.Profile.run", -12,
                detail=f"counters {self.counter_names} need {self.pass_count} passes; passes={passes} allows fewer")
        self._ran = True
        value = None
        for _ in range(self.pass_count):
            if setup is not None:
                setup()
            self._begin_pass()
            if name is None:
                value = step()
            else:
                with region(name):
                    value = step()
            if not self._pass_regions and self._open_region is None:
                self._end_pass()
                raise OpenGpaError(
                    "opengpa.Profile.run", 0,
                    detail=f"{getattr(step, '__name__', 'the step')} entered no opengpa.region: enter regions "
                    "inside it, or give p.run(step, name='step') to measure each call as one region")
            self._end_pass()
        return value

    # ---- regions -------------------------------------------------------------------------------------
    def _begin_region(self, name):
        if self._open_region is not None:
            raise OpenGpaError(
                "opengpa.region", -14,
                detail=f"region {name!r} entered inside region {self._open_region!r}: samples do not nest")
        if self._list is None:
            if self._ran or self._recorded_passes:
                raise OpenGpaError("opengpa.region", 0,
                                   detail=f"region {name!r} entered after the profile's passes were recorded")
            if self.pass_count > 1:
                raise OpenGpaError(
                    "opengpa.region", -12,
                    detail=f"counters {self.counter_names} need {self.pass_count} passes: put the work in a "
                    "function and call p.run(step) so that it is replayed once per pass")
            self._implicit = True
            self._begin_pass()
        self.library.call("GpaBeginSample", len(self._pass_regions), self._list)
        self._open_region = name
        self._pass_regions.append(name)

    def _end_region(self):
        self._open_region = None
        self.library.call("GpaEndSample", self._list)

    # ---- results -------------------------------------------------------------------------------------
    def _finish(self):
        self.library.call("GpaEndSession", self.session)
        regions = self._regions or []
        data_types = [_gpa.DATA_TYPE_FLOAT64 if c.data_type == "float64" else _gpa.DATA_TYPE_UINT64
                      for c in self._enabled]
        rows = []
        for sample_id in range(len(regions)):
            size = ctypes.c_size_t()
            self.library.call("GpaGetSampleResultSize", self.session, sample_id, ctypes.byref(size))
            buffer = (ctypes.c_uint8 * size.value)()
            self.library.call("GpaGetSampleResult", self.session, sample_id, size.value, buffer)
            rows.append(_gpa.decode_results(bytes(buffer)[: 8 * len(data_types)], data_types))
        self.results = Results(regions, self._enabled, rows, self.context.device_name, self.pass_count)


def profile(counters: Union[str, Sequence[str], None] = None, context: Optional[GpaContext] = None,
            max_samples_per_pass: int = 0, device: int = 0, hardware: Optional[bool] = None, per_kernel: bool = False,
            replay: str = "auto", cache_control: Optional[str] = None, kernel_name: str = "", nvtx: bool = True,
            stream_folder: Optional[Union[str, os.PathLike]] = None, mode: str = "exact",
            sampling_interval_us: Optional[float] = None) -> Union[Profile, KernelProfile]:
    """A Profile of `counters` (names, e.g. ["GPUTime", "FetchSize"]) on `context` (by default a live
    context on the calling thread's current CUDA context; `hardware` exposes raw CUPTI metrics, by default
    when a name is one). `max_samples_per_pass`: regions per pass (0: 256). Use it in a `with` block.

    `per_kernel=True`: one row per kernel launch of the process instead of one per region (kernels.py),
    with `opengpa profile`'s options: `replay` ("auto", "none", "kernel", "application"), `cache_control`
    ("all", the default: the L2 flushed before every launch; "none"), `kernel_name` (a regular expression), `nvtx`
    (NVTX ranges label the launches), `stream_folder` (keep each pass's sample stream there). It needs a
    GPU; regions become labels of the launches.

    `mode="sampled"` (with per_kernel=True): `opengpa profile --mode sampled` in this process. The GPUs' counters
    are sampled every `sampling_interval_us` (default 20; 100, or 25 per metric above four, where the SM throughput
    is read) while the work runs unserialized, and each launch gets its share of the samples by its own start and
    end; `counters` are CUPTI PM sampling metrics (default DRAM bytes read and written) and the Speed-of-Light
    counters built on them (SOL_SM, SOL_Memory, SOL_L1TEX, SOL_L2, SOL_DRAM, GPUBottleneck, or "SpeedOfLight" for
    all). No replay and no L2 flush
    (replay "auto"/"none", cache_control "none" only)."""
    check_mode(mode, per_kernel, replay, cache_control, sampling_interval_us)
    if per_kernel:
        if context is not None or max_samples_per_pass or hardware is not None:
            raise ValueError("per_kernel=True profiles the whole process: context, max_samples_per_pass and "
                             "hardware are for region profiles")
        return KernelProfile(counters, replay=replay, cache_control=cache_control, kernel_name=kernel_name,
                             nvtx=nvtx, device=device, stream_folder=stream_folder, mode=mode,
                             sampling_interval_us=sampling_interval_us)
    if counters is None:
        raise TypeError("opengpa.profile needs counters (GPA names or CUPTI metrics)")
    return Profile(counters, context=context, max_samples_per_pass=max_samples_per_pass, device=device,
                   hardware=hardware)
