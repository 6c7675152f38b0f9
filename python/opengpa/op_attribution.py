"""Kernel rows attributed to the operators and modules that launched them, from host-side intervals.

A per-kernel profile records, for every launch, the launching thread's OS id and the host time of the launch
(CLOCK_REALTIME, opengpa_profile.h). A CPU profiler such as torch.profiler (run with CPU activities only, so that
it leaves CUPTI to the per-kernel profiler) records each operator and each module call as an interval on a
thread. A launch belongs to every interval of its thread that contains its time; the innermost operator is the
one that launched it (aten::addmm inside aten::linear), the innermost module the one whose forward ran it.

Nothing here imports torch: the events are plain records (`CpuEvent`), which torch_ops.py reads out of
torch.profiler and which tests read from recorded files (`load_events`). Kernels launched by the backward pass
run on autograd's own thread, outside any module call: they take the modules of the forward operator that
made their autograd node (torch.profiler gives both the same sequence number).
"""

from __future__ import annotations

import bisect
import json
import os
from dataclasses import asdict, dataclass
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from .results import Results

OP, MODULE, BACKWARD = "op", "module", "backward"
MODULE_PREFIX = "nn.Module: "  # how module calls are named among the events (torch's own convention)
BACKWARD_PREFIX = "autograd::engine::evaluate_function: "


@dataclass(frozen=True)
class CpuEvent:
    """One interval of a CPU profile: `kind` is "op" (an aten operator), "module" (an nn.Module call,
    `name` its path in the model), "backward" (autograd running the node of forward op `sequence`) or
    "other" (user annotations: they contain launches but attribute none)."""
    name: str
    start_ns: int
    end_ns: int
    thread: int
    kind: str = OP
    shapes: tuple = ()
    sequence: int = -1  # autograd's sequence number, shared by a forward op and its backward node


@dataclass(frozen=True)
class LaunchAttribution:
    """What launched one kernel: `op` the innermost operator ("" when the launch is inside none), `ops`
    every operator open around it (outermost first), `module` the innermost module path, `modules` every
    module open (outermost first), `shapes` the innermost operator's input shapes, `backward` whether it
    ran in the backward pass, `call` the innermost operator's call ((thread, start_ns); the kernels of one
    call share it)."""
    op: str = ""
    ops: tuple = ()
    module: str = ""
    modules: tuple = ()
    shapes: tuple = ()
    backward: bool = False
    call: tuple = ()


def _open_at(events, starts, time_ns):
    """The events of one thread (sorted by start) that contain `time_ns`, outermost first."""
    last = bisect.bisect_right(starts, time_ns)
    containing = [e for e in events[:last] if e.end_ns >= time_ns]
    # Outermost first: earlier start, then longer.
    return sorted(containing, key=lambda e: (e.start_ns, -e.end_ns))


class _Timeline:
    """Events grouped by thread, sorted by start, for containment queries."""

    def __init__(self, events):
        self.by_thread = {}
        for event in sorted(events, key=lambda e: (e.start_ns, -e.end_ns)):
            self.by_thread.setdefault(event.thread, []).append(event)
        self.starts = {thread: [e.start_ns for e in evs] for thread, evs in self.by_thread.items()}

    def open_at(self, thread, time_ns):
        events = self.by_thread.get(thread)
        return _open_at(events, self.starts[thread], time_ns) if events else []


def attribute_launches(launches: Iterable[Tuple[int, int]], events: Sequence[CpuEvent]) -> List[LaunchAttribution]:
    """One LaunchAttribution per launch; `launches` are (thread, host_ns) pairs, `events` CpuEvents."""
    timeline = _Timeline(events)
    forward_ops = {}  # sequence number -> the forward op that made the autograd node (the first to carry it)
    for event in sorted(events, key=lambda e: e.start_ns):
        if event.kind == OP and event.sequence >= 0:
            forward_ops.setdefault(event.sequence, event)

    def modules_around(event):
        return tuple(e.name for e in timeline.open_at(event.thread, event.start_ns) if e.kind == MODULE)

    attributions = []
    for thread, host_ns in launches:
        open_events = timeline.open_at(thread, host_ns)
        ops = [e for e in open_events if e.kind == OP]
        modules = tuple(e.name for e in open_events if e.kind == MODULE)
        nodes = [i for i, e in enumerate(open_events) if e.kind == BACKWARD]
        backward = bool(nodes)
        if backward and not modules:
            forward = forward_ops.get(_node_sequence(open_events[nodes[-1]:]))
            if forward is not None:
                modules = modules_around(forward)
        innermost = ops[-1] if ops else None
        attributions.append(LaunchAttribution(
            op=innermost.name if innermost else "", ops=tuple(e.name for e in ops),
            module=modules[-1] if modules else "", modules=modules,
            shapes=innermost.shapes if innermost else (), backward=backward,
            call=(innermost.thread, innermost.start_ns) if innermost else ()))
    return attributions


def _node_sequence(node_events):
    """The sequence number of the autograd node running: on its "evaluate_function" event, or on the node's
    own event just inside it ("AddmmBackward0"); operators inside carry none of their own that counts."""
    for event in node_events:
        if event.kind != OP and event.sequence >= 0:
            return event.sequence
    return None


class OpAttribution:
    """Kernel rows (opengpa.KernelResults) with what launched each: `attributions` (one LaunchAttribution
    per row), and the tables made from them. `unattributed` counts rows launched inside no operator."""

    def __init__(self, results: Any, attributions: Sequence[LaunchAttribution], messages: Iterable[str] = ()) -> None:
        """`results`: the KernelResults; `attributions`: one per row, in row order; ValueError otherwise."""
        if len(attributions) != len(results):
            raise ValueError(f"{len(attributions)} attributions for {len(results)} kernel rows")
        self.results = results
        self.attributions = list(attributions)
        self.messages = list(messages)

    @property
    def ops(self) -> List[str]:
        """The innermost operator of each kernel row ("" for none)."""
        return [a.op for a in self.attributions]

    @property
    def modules(self) -> List[str]:
        """The innermost module of each kernel row ("" for none)."""
        return [a.module for a in self.attributions]

    @property
    def unattributed(self) -> int:
        """How many kernel rows were launched inside no operator."""
        return sum(1 for a in self.attributions if not a.op)

    def _grouped(self, names):
        return Results(names, self.results.counters, self.results.values, self.results.device_name,
                       self.results.pass_count).aggregate()

    def per_op(self, by: str = "op") -> Results:
        """One row per operator (by="op": "aten::addmm"; by="module_op": "<module>/<op>", each call site
        of an operator apart), in first-launch order: amounts summed (time, FLOPs, DRAM bytes), percentages
        averaged weighted by time (opengpa.Results.aggregate), a "count" of kernel rows. Rows launched
        inside no operator are "(no op)"."""
        if by == "op":
            names = [a.op or "(no op)" for a in self.attributions]
        elif by == "module_op":
            names = [f"{a.module}/{a.op or '(no op)'}" for a in self.attributions]
        else:
            raise ValueError(f'by must be "op" or "module_op", not {by!r}')
        return self._grouped(names)

    def per_module(self, depth: Optional[int] = None) -> Results:
        """One row per innermost module (its path in the model), or per module `depth` levels below the
        outermost one that was open (depth=1: the model's direct children); kernels outside every module
        are "(no module)". Amounts add up to the step's totals: every kernel row is in exactly one row."""
        names = []
        for attribution in self.attributions:
            modules = attribution.modules
            if depth is not None:
                modules = modules[: depth + 1]
            names.append(modules[-1] if modules else "(no module)")
        return self._grouped(names)

    def save_profile(self, path: Union[str, os.PathLike]) -> None:
        """The kernel rows as a profile JSON (KernelResults.save_profile) whose samples also name their "op" and
        "module" (the innermost of each, "" for none): `opengpa report` then adds per-op and per-module tables."""
        extra = [{"op": a.op, "module": a.module} for a in self.attributions]
        with open(path, "w") as profile_file:
            json.dump(self.results.profile_document(extra), profile_file, indent=1, allow_nan=False)

    def to_dataframe(self) -> Any:
        """The kernel rows' DataFrame (KernelResults.to_dataframe) with op, module, shapes and backward
        columns after the kernel name."""
        frame = self.results.to_dataframe()
        position = list(frame.columns).index("kernel") + 1
        for offset, (column, values) in enumerate((
                ("op", self.ops), ("module", self.modules),
                ("shapes", [str(list(a.shapes)) if a.shapes else "" for a in self.attributions]),
                ("backward", [a.backward for a in self.attributions]))):
            frame.insert(position + offset, column, values)
        return frame

    def __repr__(self):
        return (f"<opengpa.OpAttribution: {len(self.attributions)} kernel rows, "
                f"{len(set(self.ops) - {''})} operators, {self.unattributed} outside any operator>")


def attribute(results: Any, events: Sequence[CpuEvent], messages: Iterable[str] = ()) -> OpAttribution:
    """OpAttribution of per-kernel `results` (KernelResults, whose rows carry their launch's thread and
    host time) to CpuEvents."""
    launches = list(zip(results.threads, results.launch_times_ns))
    if any(time is None for _, time in launches):
        raise ValueError("these kernel rows carry no launch times (recorded before launch times were kept)")
    return OpAttribution(results, attribute_launches(launches, events), messages)


def save_events(events: Iterable[CpuEvent], path: Union[str, os.PathLike]) -> None:
    """Writes CpuEvents to `path` as JSON (what load_events reads back: recorded steps for tests and reruns)."""
    with open(path, "w") as out:
        json.dump([asdict(event) for event in events], out, indent=0)


def load_events(path: Union[str, os.PathLike]) -> List[CpuEvent]:
    """The CpuEvents save_events wrote to `path`."""
    with open(path) as recorded:
        return [CpuEvent(**{**event, "shapes": _tuples(event.get("shapes", ()))}) for event in json.load(recorded)]


def _tuples(shapes):
    return tuple(tuple(shape) if isinstance(shape, list) else shape for shape in shapes)
