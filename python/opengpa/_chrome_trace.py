"""Per-kernel rows as a Chrome trace (`KernelResults.export_chrome_trace`), in the subset of the Trace Event
format that `opengpa profile` writes (docs/schema/chrome-trace.schema.json): one complete event ("ph": "X") per
kernel launch, `ts` and `dur` in microseconds from the first launch, one track (`tid`) per stream named by a
`thread_name` metadata event, and `args` holding the launch (index, grid, block, ranges, ...) and every counter
value (null where none was measured). Open it in ui.perfetto.dev or chrome://tracing.

Where each event sits, in order of what the rows carry:

1. device timestamps (`start_ns`/`end_ns`: a sampled profile, an OpenCL profile read with `load_profile`): start
   and end as measured;
2. host launch times (`launch_times_ns`, per-kernel profiles from Python): the kernel starts at its launch, or
   when the previous kernel of its stream ended if that is later (a stream runs its kernels one after another),
   and lasts its measured time (GPUTime or gpu__time_duration.sum);
3. neither: laid end to end on its stream in launch order, each as long as its measured time, as the CLI does.

`args.timeline` names the rule used when it is not the first; without a time counter the events of 2 and 3 last 0.

Counter tracks follow the launches, as the CLI writes them: per counter, a "C" event at each launch's start with
{"stream N": value} and 0 at its end unless the stream's next launch starts there with a value of its own, so that
Perfetto shows one track per counter and stream, each value spanning its kernel.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

_TIME_COLUMNS = ("GPUTime", "gpu__time_duration.sum", "duration")
_FROM_LAUNCH = "from the host launch time, after the stream's previous kernel (no device timestamps)"
_END_TO_END = "laid end to end (no device timestamps)"


def _value(number: float) -> Optional[float]:
    """JSON has no NaN: a counter without a value is null."""
    number = float(number)
    if not math.isfinite(number):
        return None
    return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number


def _dimensions(triple: Any) -> str:
    """4096x1x1, as the CLI's trace writes a grid or block."""
    return "x".join(str(int(d)) for d in triple)


def chrome_trace(results: Any, api: str = "cuda") -> Dict[str, Any]:
    """The trace document (a dict ready for json.dump) of a KernelResults."""
    rows = len(results.kernels)
    time = next((name for name in _TIME_COLUMNS if name in results), None)
    durations_ns = [float(v) if math.isfinite(v) else 0.0 for v in results[time]] if time else [0.0] * rows
    starts = getattr(results, "start_times_ns", [None] * rows)
    ends = getattr(results, "end_times_ns", [None] * rows)
    launches = results.launch_times_ns
    timed = all(s is not None and e is not None and e >= s for s, e in zip(starts, ends)) and rows > 0
    launched = all(t is not None for t in launches) and rows > 0
    origin = min(starts) if timed else (min(launches) if launched else 0)
    streams = [int(s) if s is not None else 0 for s in results.streams]
    events: List[Dict[str, Any]] = [{"name": "process_name", "ph": "M", "pid": 1, "tid": 0,
                                     "args": {"name": f"{api} {results.device_name}".strip()}}]
    for stream in dict.fromkeys(streams):
        events.append({"name": "thread_name", "ph": "M", "pid": 1, "tid": stream, "args": {"name": f"stream {stream}"}})
    cursor_ns: Dict[int, float] = {}  # where each stream's previous kernel ended, from the origin
    placed: List[Any] = []  # per row: start and duration (ns)
    for row in range(rows):
        if timed:
            start_ns, duration_ns, rule = starts[row] - origin, float(ends[row] - starts[row]), None
        elif launched:
            start_ns = max(float(launches[row] - origin), cursor_ns.get(streams[row], 0.0))
            duration_ns, rule = durations_ns[row], _FROM_LAUNCH
        else:
            start_ns, duration_ns, rule = cursor_ns.get(streams[row], 0.0), durations_ns[row], _END_TO_END
        cursor_ns[streams[row]] = max(cursor_ns.get(streams[row], 0.0), start_ns + duration_ns)
        args: Dict[str, Any] = {"index": results.indices[row], "grid": _dimensions(results.grids[row]),
                                "block": _dimensions(results.blocks[row])}
        if results.ranges[row]:
            args["ranges"] = list(results.ranges[row])
        if results.contexts[row]:
            args["context"] = hex(results.contexts[row])
        if results.graphs[row] is not None:
            args["graph"] = results.graphs[row]
        if results.threads[row] is not None:
            args["thread"] = results.threads[row]
        if launches[row] is not None:
            args["launch_time_ns"] = launches[row]  # CLOCK_REALTIME: lines the row up with torch.profiler's trace
        if rule:
            args["timeline"] = rule
        for column, counter in enumerate(results.counters):
            args[counter.name] = _value(results.values[row, column])
        events.append({"name": results.kernels[row], "cat": api, "ph": "X", "ts": start_ns / 1000.0,
                       "dur": duration_ns / 1000.0, "pid": 1, "tid": streams[row], "args": args})
        placed.append((start_ns, duration_ns))
    events.extend(counter_events(results, streams, placed))
    return {"traceEvents": events, "displayTimeUnit": "ns"}


def counter_events(results: Any, streams: List[int], placed: List[Any]) -> List[Dict[str, Any]]:
    """The counter tracks of the rows placed at (start_ns, duration_ns), as the module's docstring says."""
    following: List[Optional[int]] = [None] * len(placed)  # the stream's next row
    later: Dict[int, int] = {}
    for row in range(len(placed) - 1, -1, -1):
        following[row] = later.get(streams[row])
        later[streams[row]] = row
    events: List[Dict[str, Any]] = []
    for row, (start_ns, duration_ns) in enumerate(placed):
        track = f"stream {streams[row]}"
        end_ns = start_ns + duration_ns
        after = following[row]
        back_to_back = after is not None and placed[after][0] <= end_ns
        for column, counter in enumerate(results.counters):
            value = _value(results.values[row, column])
            if value is None:
                continue
            events.append({"name": counter.name, "ph": "C", "ts": start_ns / 1000.0, "pid": 1, "args": {track: value}})
            if not (back_to_back and _value(results.values[after, column]) is not None):
                events.append({"name": counter.name, "ph": "C", "ts": end_ns / 1000.0, "pid": 1, "args": {track: 0}})
    return events
