"""Counters inside torch.profiler's own trace: `add_counters(trace, profile, output)` writes torch.profiler's Chrome
trace (`prof.export_chrome_trace(path)`, Kineto's JSON) with each GPU kernel event's args holding that kernel's
counters from an OpenGPA per-kernel profile, so that Perfetto and HolisticTraceAnalysis show them beside Kineto's
own fields. Nothing here imports torch.

The two come from two runs of the same step: while OpenGPA's per-kernel profiler holds CUPTI, Kineto records no
GPU activity in that process (torch_ops.py), and OpenGPA's rows carry no CUPTI correlation id of Kineto's run. So
kernels are matched by name and order: the n-th launch of a kernel name in the trace is the n-th launch of that
name in the profile. A pair whose grid or block differ is not matched (another launch configuration: the runs
differ there), and neither is a launch one side has more of; the result says how many of each.

    with torch.profiler.profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        step()
    prof.export_chrome_trace("torch.json")
    with opengpa.profile(counters, per_kernel=True) as p:
        step()
    opengpa.torch_trace.add_counters("torch.json", p.results, "torch_with_counters.json")
"""

from __future__ import annotations

import gzip
import json
import os
from collections import defaultdict
from typing import Any, Dict, List, Union

from ._chrome_trace import _value
from .kernels import KernelResults, load_profile

PathLike = Union[str, os.PathLike]
KERNEL_CATEGORIES = ("kernel", "Kernel")  # Kineto's category of GPU kernel events


def _read(trace: Union[PathLike, Dict[str, Any]]) -> Dict[str, Any]:
    if isinstance(trace, dict):
        return json.loads(json.dumps(trace))  # a copy: the caller's document stays as it was
    opener = gzip.open if os.fspath(trace).endswith(".gz") else open
    with opener(trace, "rt") as trace_file:
        document = json.load(trace_file)
    if isinstance(document, list):  # the bare array form of the Trace Event format
        document = {"traceEvents": document}
    if not isinstance(document, dict) or not isinstance(document.get("traceEvents"), list):
        raise ValueError(f"{os.fspath(trace)} is not a Chrome trace (no traceEvents array)")
    return document


def _triple(value: Any):
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return tuple(int(d) for d in value)
    return None


def add_counters(trace: Union[PathLike, Dict[str, Any]], profile: Union[KernelResults, PathLike],
                 output: PathLike) -> Dict[str, Any]:
    """Writes `trace` (a torch.profiler trace file, or its document) to `output` with the counters of `profile` (a
    KernelResults, or an `opengpa profile` JSON path) in the args of the kernel events they match. Returns what was
    matched: {"matched", "trace_kernels", "profile_rows", "unmatched_trace": {name: n}, "unmatched_profile":
    {name: n}, "shape_mismatches", "kept_args": [names of counters not written because Kineto's args have them]}."""
    document = _read(trace)
    results = profile if isinstance(profile, KernelResults) else load_profile(profile)
    rows_of: Dict[str, List[int]] = defaultdict(list)
    for row, name in enumerate(results.kernels):
        rows_of[name].append(row)
    seen: Dict[str, int] = defaultdict(int)
    used: Dict[str, int] = defaultdict(int)
    summary: Dict[str, Any] = {"matched": 0, "trace_kernels": 0, "profile_rows": len(results.kernels),
                               "unmatched_trace": {}, "unmatched_profile": {}, "shape_mismatches": 0,
                               "kept_args": []}
    kept = set()
    for event in document["traceEvents"]:
        if not isinstance(event, dict) or event.get("ph") != "X" or event.get("cat") not in KERNEL_CATEGORIES:
            continue
        summary["trace_kernels"] += 1
        name = event.get("name", "")
        occurrence = seen[name]
        seen[name] += 1
        rows = rows_of.get(name, [])
        if occurrence >= len(rows):
            summary["unmatched_trace"][name] = summary["unmatched_trace"].get(name, 0) + 1
            continue
        row = rows[occurrence]
        args = event.setdefault("args", {})
        grid, block = _triple(args.get("grid")), _triple(args.get("block"))
        if (grid is not None and grid != tuple(results.grids[row])) or \
                (block is not None and block != tuple(results.blocks[row])):
            summary["shape_mismatches"] += 1
            summary["unmatched_trace"][name] = summary["unmatched_trace"].get(name, 0) + 1
            continue
        for column, counter in enumerate(results.counters):
            if counter.name in args:
                kept.add(counter.name)
                continue
            args[counter.name] = _value(results.values[row, column])
        args["opengpa_index"] = results.indices[row]
        used[name] += 1
        summary["matched"] += 1
    for name, rows in rows_of.items():
        if len(rows) > used[name]:
            summary["unmatched_profile"][name] = len(rows) - used[name]
    summary["kept_args"] = sorted(kept)
    with open(output, "w") as output_file:
        json.dump(document, output_file, allow_nan=False)
    return summary
