"""PyTorch attribution: which aten operator and which nn.Module launched each kernel.

Two ways, for the two kinds of profile:

- `TorchOps(model)` (per-kernel profiles, opengpa.profile(..., per_kernel=True)): torch.profiler runs with CPU
  activities only, beside the per-kernel profiler, and records every aten op and module call as an interval on
  its thread; each kernel row carries its launch's thread and host time, and belongs to the innermost op and
  module whose interval contains it (op_attribution.py). `ops.attribute(p.results)` gives the per-op and
  per-module tables. torch.profiler is started once the per-kernel profiler holds CUPTI's one subscriber, so
  that PyTorch's profiler (Kineto) finds CUPTI taken and stays on the CPU; in that process Kineto then records
  no CUDA activity later either.

      with opengpa.profile(counters, per_kernel=True) as p, TorchOps(model) as ops:
          p.run(step)
      table = ops.attribute(p.results)
      table.per_op().to_dataframe(); table.per_module().to_dataframe()

- `op_regions(model)` (region profiles, per_kernel=False): every aten op becomes an opengpa region named
  "<module>/<op>" through a TorchDispatchMode, so that each op's GPU work is one GPA sample. Region profiles
  have no kernel rows to place in torch.profiler's intervals, so this stays their way to a table of ops. In a
  per-kernel profile it labels the kernel rows too (kept for programs that cannot run torch.profiler).

Samples do not nest and a pass holds at most max_samples_per_pass samples (256 unless opengpa.profile
asks for more), so profile a step of at most that many ops with op_regions.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any, Iterator, List, Sequence, Tuple

from ._status import OpenGpaError
from .op_attribution import BACKWARD, BACKWARD_PREFIX, MODULE, MODULE_PREFIX, OP, CpuEvent, OpAttribution, attribute
from ._regions import _current_profile, region
from .kernels import KernelProfile


def _torch():
    try:
        import torch
        from torch.utils._python_dispatch import TorchDispatchMode
    except ImportError:
        raise ImportError("opengpa.torch_ops needs PyTorch") from None
    return torch, TorchDispatchMode


@contextlib.contextmanager
def op_regions(model: Any = None, skip_views: bool = True) -> Iterator[None]:
    """Within the block, each aten op on CUDA tensors runs inside opengpa.region("<module>/<op>").

    `model`: its submodules are named by their path in it (model.named_modules()); other modules by
    their class name. Without a model, ops are named by the op alone when no module is running."""
    torch, TorchDispatchMode = _torch()
    names = {id(module): name or type(module).__name__ for name, module in model.named_modules()} if model else {}
    stack = []

    def before(module, args):
        stack.append(names.get(id(module), type(module).__name__))

    def after(module, args, output):
        if stack:
            stack.pop()

    class _OpRegions(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if skip_views and (getattr(func, "is_view", False) or func.__name__ in _NO_WORK):
                return func(*args, **kwargs)
            name = f"{stack[-1]}/{func}" if stack else str(func)
            with region(name):
                return func(*args, **kwargs)

    from torch.nn.modules import module as module_hooks
    pre = module_hooks.register_module_forward_pre_hook(before)
    post = module_hooks.register_module_forward_hook(after)
    try:
        with _OpRegions():
            yield
    finally:
        pre.remove()
        post.remove()


# Ops that only describe tensors (no kernel): recording them would add empty samples.
_NO_WORK = {"detach.default", "alias.default", "lift_fresh.default",
            "empty.memory_format", "empty_strided.default", "size.default", "stride.default"}


# ---- torch.profiler beside a per-kernel profile -----------------------------------------------------------

_MARKER = "opengpa::clock"  # a user annotation whose time and thread Python knows: the clock and thread check


class TorchOps:
    """Within a per-kernel profile, torch.profiler (CPU activities only, input shapes recorded) and a
    record_function per nn.Module call ("nn.Module: <path in model>"); `attribute(results)` places the kernel
    rows in them. `model`: its modules are named by their path in it; other modules by their class name.
    After the block: `events` (opengpa.op_attribution.CpuEvent) and `messages` (how threads and clocks were
    matched)."""

    def __init__(self, model: Any = None, record_shapes: bool = True) -> None:
        """`model`: a torch.nn.Module whose submodules are named by their path in it; `record_shapes`: keep each
        op's input shapes (torch.profiler's record_shapes). Needs PyTorch (ImportError without it)."""
        torch, _ = _torch()
        self._torch = torch
        self.model = model
        self.record_shapes = record_shapes
        self.events = []
        self.messages = []
        self._profile = None
        self._profiler = None
        self._hooks = []
        self._module_calls = []  # open record_function handles of module calls, innermost last
        self._names = {id(m): name or type(m).__name__ for name, m in model.named_modules()} if model else {}
        self._clock = None

    def __enter__(self):
        profile = _current_profile()
        if not isinstance(profile, KernelProfile):
            raise OpenGpaError("opengpa.torch_ops.TorchOps", 0,
                               detail="TorchOps attributes the kernel rows of a per-kernel profile: enter it inside "
                               "opengpa.profile(counters, per_kernel=True) (for region profiles use op_regions)")
        self._profile = profile
        if profile._running:
            self._start_profiler()
        else:  # application replay: the first pass subscribes to CUPTI in p.run
            profile._after_start.append(self._start_profiler)
        self._install_module_hooks()
        return self

    def __exit__(self, exc_type, exc, traceback):
        for hook in self._hooks:
            hook.remove()
        self._hooks = []
        while self._module_calls:
            self._module_calls.pop().__exit__(None, None, None)
        if self._profile is not None and self._start_profiler in self._profile._after_start:
            self._profile._after_start.remove(self._start_profiler)
        if self._profiler is not None:
            self._profiler.__exit__(None, None, None)
            if exc_type is None:
                self.events = self._read_events()
        return False

    def attribute(self, results: Any = None) -> OpAttribution:
        """opengpa.op_attribution.OpAttribution of the per-kernel profile's rows (by default the results of
        the profile this block ran in, available once that profile's block has ended)."""
        results = results if results is not None else self._profile.results
        if results is None:
            raise OpenGpaError("opengpa.torch_ops.TorchOps.attribute", 0,
                               detail="the per-kernel profile has no results yet: call attribute() after its block")
        return attribute(results, self.events, self.messages)

    # ---- torch.profiler ------------------------------------------------------------------------------
    def _start_profiler(self):
        torch = self._torch
        options = {"activities": [torch.profiler.ProfilerActivity.CPU], "record_shapes": self.record_shapes}
        try:  # one cycle, kept whole (PyTorch 2.11 warns that events are cleared at each cycle's end otherwise)
            self._profiler = torch.profiler.profile(**options, acc_events=True)
        except TypeError:
            self._profiler = torch.profiler.profile(**options)
        self._profiler.__enter__()
        thread = threading.get_native_id()
        realtime, monotonic = time.time_ns(), time.monotonic_ns()
        with torch.profiler.record_function(_MARKER):
            pass
        self._clock = (thread, realtime, monotonic)

    def _install_module_hooks(self):
        torch = self._torch
        from torch.nn.modules import module as module_hooks
        names, calls = self._names, self._module_calls

        def before(module, args):
            call = torch.profiler.record_function(MODULE_PREFIX + names.get(id(module), type(module).__name__))
            call.__enter__()
            calls.append(call)

        def after(module, args, output):
            if calls:
                calls.pop().__exit__(None, None, None)

        self._hooks.append(module_hooks.register_module_forward_pre_hook(before))
        try:  # always_call: the call's interval closes even when forward raises
            self._hooks.append(module_hooks.register_module_forward_hook(after, always_call=True))
        except TypeError:
            self._hooks.append(module_hooks.register_module_forward_hook(after))

    def _read_events(self):
        results = getattr(self._profiler.profiler, "kineto_results", None)
        if results is None:
            raise OpenGpaError("opengpa.torch_ops.TorchOps", 0,
                               detail="this PyTorch's profiler keeps no kineto_results: op attribution needs "
                               "PyTorch 2 (use op_regions instead)")
        raw = [e for e in results.events() if _is_cpu(e)]
        return events_from_kineto(raw, self._clock, self.messages)


def _is_cpu(event):
    device_type = event.device_type()
    return getattr(device_type, "name", str(device_type)).upper().endswith("CPU")


def _kind(name, user_annotation):
    if name.startswith(MODULE_PREFIX):
        return MODULE
    if name.startswith(BACKWARD_PREFIX):
        return BACKWARD
    if user_annotation or "::" not in name or name.startswith(("opengpa::", "profiler::", "autograd::")):
        return "other"
    return OP


def events_from_kineto(raw: Sequence[Any], clock: Tuple[int, int, int], messages: List[str]) -> List[CpuEvent]:
    """CpuEvents from torch.profiler's Kineto events: module calls named without their prefix, threads as
    OS thread ids and times on CLOCK_REALTIME, checked against the marker TorchOps records at its start
    (`clock`: the marker's OS thread id and the realtime and monotonic clocks read just before it)."""
    thread, realtime, monotonic = clock
    marker = next((e for e in raw if e.name() == _MARKER), None)
    if marker is None:
        raise OpenGpaError("opengpa.torch_ops.TorchOps", 0, detail="torch.profiler lost the clock marker")
    # Threads: Kineto's device_resource_id is the OS thread of a CPU event where this PyTorch says so.
    resource = getattr(marker, "device_resource_id", lambda: None)()
    if resource == thread:
        thread_of = lambda e: e.device_resource_id()  # noqa: E731
        messages.append("threads: torch.profiler's device_resource_id is the OS thread id")
    else:
        main = marker.start_thread_id()
        thread_of = lambda e: thread if e.start_thread_id() == main else -e.start_thread_id()  # noqa: E731
        messages.append(f"threads: torch.profiler gave no OS thread ids (device_resource_id {resource}, "
                        f"OS thread {thread}); only the profiling thread's launches are attributed")
    # Clock: torch.profiler's events are on CLOCK_REALTIME on Linux; shift them if this one differs.
    start = marker.start_ns()
    if abs(start - realtime) < 5_000_000:
        shift = 0
        messages.append(f"clock: torch.profiler on CLOCK_REALTIME (marker {start - realtime} ns after it was read)")
    elif abs(start - monotonic) < 5_000_000:
        shift = realtime - monotonic
        messages.append("clock: torch.profiler on CLOCK_MONOTONIC, shifted onto CLOCK_REALTIME")
    else:
        shift = realtime - start
        messages.append(
            f"clock: torch.profiler's clock is {start - realtime} ns off CLOCK_REALTIME; shifted by the marker")
    events = []
    for e in raw:
        name = e.name()
        user_annotation = getattr(e, "is_user_annotation", lambda: False)()
        kind = _kind(name, user_annotation)
        end = e.end_ns() if hasattr(e, "end_ns") else e.start_ns() + e.duration_ns()
        shapes = ()
        if kind == OP and hasattr(e, "shapes"):
            try:
                shapes = tuple(tuple(int(d) for d in shape) for shape in e.shapes())
            except (TypeError, ValueError):  # an input that is no tensor (a list of tensors) has no flat shape
                shapes = ()
        sequence = e.sequence_nr() if hasattr(e, "sequence_nr") else -1
        if kind == MODULE:
            name = name[len(MODULE_PREFIX):]
        events.append(CpuEvent(name=name, start_ns=e.start_ns() + shift, end_ns=end + shift, thread=thread_of(e),
                               kind=kind, shapes=shapes, sequence=sequence))
    return events
