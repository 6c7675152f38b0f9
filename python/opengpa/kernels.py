"""One row per kernel launch: `opengpa.profile(counters, per_kernel=True)`.

The per-kernel profiler is `opengpa profile --api cuda`'s, driven from inside the Python process: the
profiler library (libOpenGPAProfile.so, whose C API is include/opengpa/opengpa_profile.h) starts the same
session the CLI injects into programs on the running process, whatever CUDA contexts it already made (PyTorch
creates its context early). Each kernel launch is one
CUPTI auto range and one row: demangled kernel name, grid, block, stream, context, every counter, GPA
derived counters evaluated by the library's engine. Nothing is measured or evaluated here.

- Regions are labels here, not samples: `opengpa.region(name)` and NVTX push/pop ranges
  (torch.cuda.nvtx.range_push, nvtx.annotate, C++ libraries' NVTX) open on the launching thread are
  recorded with each launch, and may nest. `results.aggregate()` gives one row per innermost region
  (with `opengpa.torch_ops.op_regions`, one per aten op), `aggregate(by="kernel")` one per kernel name.
- `mode="sampled"`: `opengpa profile --mode sampled` in this process (OpenGpaProfileStartSampled): the GPUs' PM
  samples at `sampling_interval_us`, shared out among the launches by their own start and end times; no ranges, no
  replay, no serialization. Rows carry CUPTI PM sampling metrics and the CLI's pm__coverage, pm__samples,
  pm__overlapped and pm__short columns, their device times, a "duration" column and the same labels.
- Multi-pass sets: `p.run(step)` runs `step()` once per pass (application replay from inside): each pass
  is a session of its own, and the passes are joined launch by launch with the CLI's rules (same launches,
  same order, same names and shapes; src/profiler/replay_merge.h) and, here, the same region
  labels. A mismatch raises OpenGpaError and nothing is mixed. `replay="kernel"` lets CUPTI replay each
  launch instead, so that a multi-pass set needs no `p.run`.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import tempfile
from typing import Any, Callable, Dict, Iterable, Optional, Sequence, Union

import numpy as np

from . import _chrome_trace, _cuda
from ._regions import _pop_profile, _push_profile, region
from ._library import find_library
from ._status import OpenGpaError
from .counters import Counter, _names
from .results import Results

LIBRARY = "libOpenGPAProfile.so"
API_MAJOR_VERSION = 1  # OPENGPA_PROFILE_API_MAJOR_VERSION of the header these signatures follow
_STATUS_OK = 0
_STATUS_BUFFER_TOO_SMALL = -3
_library = None


class _Options(ctypes.Structure):
    """OpenGpaProfileOptions."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("counters", ctypes.c_char_p), ("replay", ctypes.c_char_p),
                ("pass_index", ctypes.c_uint32), ("flush_caches", ctypes.c_int32), ("kernel_name", ctypes.c_char_p),
                ("stream_path", ctypes.c_char_p), ("with_nvtx", ctypes.c_int32)]


class _SampledOptions(ctypes.Structure):
    """OpenGpaProfileSampledOptions (API 1.1)."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("metrics", ctypes.c_char_p), ("interval_us", ctypes.c_double),
                ("kernel_name", ctypes.c_char_p), ("stream_path", ctypes.c_char_p), ("output_path", ctypes.c_char_p),
                ("with_nvtx", ctypes.c_int32)]


MODES = ("exact", "sampled")
DURATION = "duration"  # the column a sampled row's device times give (end - start, ns)


def load_library() -> Any:
    """The profiler library with the signatures of include/opengpa/opengpa_profile.h (loaded once)."""
    global _library
    if _library is None:
        path = find_library(LIBRARY)
        try:
            library = ctypes.CDLL(path)
        except OSError as error:
            raise OpenGpaError(f"loading {LIBRARY}", -28,
                               detail=f"{error}: set OPENGPA_LIBRARY_DIR to the folder holding the OpenGPA "
                               "libraries (a build's lib/)") from None
        status, size_p, text = ctypes.c_int, ctypes.POINTER(ctypes.c_size_t), ctypes.c_char_p
        for name, argtypes, restype in (
                ("OpenGpaProfileGetVersion", [ctypes.POINTER(ctypes.c_uint32)] * 2, status),
                ("OpenGpaProfileGetLastError", [], text),
                ("OpenGpaProfilePlan", [ctypes.c_void_p, text, text, ctypes.c_char_p, size_p], status),
                ("OpenGpaProfileStart", [ctypes.POINTER(_Options)], status),
                ("OpenGpaProfileStop", [], status),
                ("OpenGpaProfilePushRange", [text], status),
                ("OpenGpaProfilePopRange", [], status),
                ("OpenGpaProfileGetLaunches", [ctypes.c_char_p, size_p], status),
                ("OpenGpaProfileJoin", [ctypes.POINTER(text), ctypes.c_uint32, text], status),
                ("OpenGpaProfileGetCuptiPath", [ctypes.c_char_p, size_p], status),
                ("OpenGpaProfileStartSampled", [ctypes.POINTER(_SampledOptions)], status)):
            function = getattr(library, name, None)
            if function is None:  # a library of API 1.0 has no sampled session: refused where it is asked for
                continue
            function.argtypes = argtypes
            function.restype = restype
        major, minor = ctypes.c_uint32(), ctypes.c_uint32()
        if library.OpenGpaProfileGetVersion(ctypes.byref(major), ctypes.byref(minor)) != _STATUS_OK or \
                major.value != API_MAJOR_VERSION:
            raise OpenGpaError(f"loading {LIBRARY}", -28,
                               detail=f"{path} implements version {major.value}.{minor.value} of the profiler API; "
                               f"this package speaks version {API_MAJOR_VERSION}")
        _library = library
    return _library


def _fail(function, status):
    message = _library.OpenGpaProfileGetLastError()
    return OpenGpaError(function, status, detail=message.decode("utf-8", "replace") if message else "")


def _check(function, status):
    if status != _STATUS_OK:
        raise _fail(function, status)
    return status


def _text(function, *args):
    """A C entry that fills a buffer: tried with room for most texts, again with the size it asks for."""
    entry = getattr(_library, function)
    size = ctypes.c_size_t(65536)
    while True:
        buffer = ctypes.create_string_buffer(size.value)
        status = entry(*args, buffer, ctypes.byref(size))
        if status != _STATUS_BUFFER_TOO_SMALL:
            _check(function, status)
            return buffer.value.decode("utf-8", "replace")


def _encode(text):
    return text.encode() if text is not None else None


class KernelResults(Results):
    """One row per kernel launch (per_kernel=True): Results' regions, counters and values, plus

    - ``kernels``: demangled kernel names; ``grids`` and ``blocks``: (x, y, z) tuples; ``streams``: CUPTI's
      stream ids; ``contexts``: the CUcontext of each launch (an int); ``indices``: launch order in the profile;
    - ``regions``: the innermost region or NVTX range open when the kernel was launched ("" for none), and
      ``ranges``: every range open, outermost first;
    - ``threads`` and ``launch_times_ns``: the launching thread's OS id and the host time of the launch
      (CLOCK_REALTIME, ns), which place it inside a CPU profiler's intervals (opengpa.op_attribution);
    - ``graphs``: for a row that is a CUDA graph launch, CUPTI's id of the executable graph (else None). Such a
      row is the graph's kernel when it is the graph's one piece of GPU work, else the whole launch, named
      "CUDA graph: N kernel nodes (...)" (CUPTI samples no single node of a graph; docs/python.md);
    - ``start_times_ns`` and ``end_times_ns``: device timestamps where the profile has them (OpenCL profiles of
      the CLI read with `load_profile`), else None;
    - ``table()``: a printable per-kernel table; ``export_chrome_trace(path)``: a trace for ui.perfetto.dev.
    """

    def __init__(self, rows: Sequence[Dict[str, Any]], counters: Sequence[Any], values: Any, device_name: str = "",
                 pass_count: int = 1, replay: str = "", messages: Iterable[str] = (), api: str = "cuda") -> None:
        """`rows`: one dict per launch (index, kernel, grid, block, stream, context, ranges, region and optionally
        thread, host_ns, graph, start_ns, end_ns); `values`: rows x counters."""
        super().__init__([row["region"] for row in rows], counters, values, device_name, pass_count)
        self.indices = [row["index"] for row in rows]
        self.kernels = [row["kernel"] for row in rows]
        self.grids = [tuple(row["grid"]) for row in rows]
        self.blocks = [tuple(row["block"]) for row in rows]
        self.streams = [row["stream"] for row in rows]
        self.contexts = [row["context"] for row in rows]
        self.ranges = [tuple(row["ranges"]) for row in rows]
        self.threads = [row.get("thread") for row in rows]
        self.launch_times_ns = [row.get("host_ns") for row in rows]
        self.graphs = [row.get("graph") for row in rows]
        self.start_times_ns = [row.get("start_ns") for row in rows]
        self.end_times_ns = [row.get("end_ns") for row in rows]
        self.replay = replay
        self.messages = list(messages)
        self.api = api

    def aggregate(self, by: str = "region") -> Results:
        """One row per distinct innermost region (by="region"), range path (by="path": every range open,
        outermost first, joined by "/"; "" outside any) or kernel name (by="kernel"), as Results.aggregate: amounts
        summed (a sampled profile's shares of the samples add up to the range's), percentages and ratios averaged
        weighted by time, a "count"."""
        if by == "region":
            return super().aggregate()
        if by == "path":
            names = ["/".join(ranges) for ranges in self.ranges]
        elif by == "kernel":
            names = self.kernels
        else:
            raise ValueError(f'by must be "region", "path" or "kernel", not {by!r}')
        return Results(names, self.counters, self.values, self.device_name, self.pass_count).aggregate()

    def table(self, by: str = "kernel", sort_by: Optional[str] = None, row_limit: Optional[int] = None,
              width: Optional[int] = None) -> str:
        """A printable table, torch.profiler's `key_averages().table()` for kernels: one line per kernel name
        (by="kernel", the default), innermost region (by="region") or range path (by="path") with its launch
        count, time total, share and average, and each counter rolled up as aggregate() does; sorted by time (or
        `sort_by`: a counter name or "calls"), largest first; at most `row_limit` rows and `width` characters per
        line (default: the terminal's), names cut with "..." and counter columns that do not fit named below the
        table."""
        return self._grouped_table(self.aggregate(by=by), by, sort_by, row_limit, width)

    def chrome_trace(self) -> Dict[str, Any]:
        """The rows as a Chrome trace document (a dict): one "X" event per launch, counters in its args
        (python/opengpa/_chrome_trace.py says where each event is placed)."""
        return _chrome_trace.chrome_trace(self, self.api)

    def export_chrome_trace(self, path: Union[str, os.PathLike]) -> None:
        """Writes `chrome_trace()` to `path` as JSON (open it in ui.perfetto.dev or chrome://tracing)."""
        with open(path, "w") as trace:
            json.dump(self.chrome_trace(), trace, allow_nan=False)

    def profile_document(self, extra: Optional[Sequence[Dict[str, Any]]] = None) -> Dict[str, Any]:
        """The rows as `opengpa profile`'s JSON document (docs/schema/profile.schema.json), which `opengpa report`
        and `opengpa compare` read; `extra`: per row, more sample fields (PyTorch's "op" and "module"). A Python
        profile names no process, host or GPU: pid 0, rank null, empty names."""
        samples = []
        for row in range(len(self.kernels)):
            sample: Dict[str, Any] = {
                "pid": 0, "rank": None, "host": "", "gpu": None, "gpu_uuid": "", "pci_bus_id": "",
                "index": self.indices[row], "kernel": self.kernels[row], "queue": int(self.streams[row] or 0),
                "grid": [int(d) for d in self.grids[row]], "block": [int(d) for d in self.blocks[row]]}
            if self.start_times_ns[row] is not None and self.end_times_ns[row] is not None:
                sample["start_ns"], sample["end_ns"] = self.start_times_ns[row], self.end_times_ns[row]
            sample["nvtx"] = list(self.ranges[row])
            if self.graphs[row] is not None:
                sample["graph"] = self.graphs[row]
            sample["values"] = {counter.name: _chrome_trace._value(self.values[row, column])
                                for column, counter in enumerate(self.counters)}
            if extra is not None:
                sample.update(extra[row])
            samples.append(sample)
        document: Dict[str, Any] = {
            "schema": "opengpa-profile/1", "api": self.api, "device": self.device_name, "command": ["python"],
            "exit_code": 0, "wall_time_s": 0.0}
        if self.replay:
            document["replay"] = {"mode": self.replay, "passes": self.pass_count}
        document["counters"] = [{"name": c.name, "usage": c.usage, "data_type": c.data_type} for c in self.counters]
        document["queues"] = [{"id": int(s or 0), "name": f"stream {int(s or 0)}", "device": self.device_name}
                              for s in dict.fromkeys(self.streams)]
        document["samples"] = samples
        document["messages"] = list(self.messages)
        return document

    def save_profile(self, path: Union[str, os.PathLike]) -> None:
        """Writes `profile_document()` to `path`: `opengpa report path -o report.html` draws it."""
        with open(path, "w") as profile_file:
            json.dump(self.profile_document(), profile_file, indent=1, allow_nan=False)

    def to_dataframe(self) -> Any:
        """pandas: index, kernel, region, ranges, grid, block, stream, context, graph, then one column per counter."""
        frame = super().to_dataframe()
        frame = frame.drop(columns=["region"])
        for position, (column, values) in enumerate((
                ("index", self.indices), ("kernel", self.kernels), ("region", self.regions),
                ("ranges", ["/".join(r) for r in self.ranges]), ("grid", self.grids), ("block", self.blocks),
                ("stream", self.streams), ("context", [hex(c) if c else "" for c in self.contexts]),
                ("graph", self.graphs))):
            frame.insert(position, column, values)
        return frame

    def __repr__(self) -> str:
        return (f"<opengpa.KernelResults on {self.device_name}: {len(self.kernels)} kernel launches, "
                f"{len(self.counters)} counters, {self.pass_count} pass(es)" +
                (f", {self.replay} replay>" if self.replay else ">"))


def results_from_profile(document: Dict[str, Any], launches: Sequence[Dict[str, Any]] = ()) -> KernelResults:
    """KernelResults from `opengpa profile`'s JSON document (docs/schema/profile.schema.json): the joined passes
    of a Python profile, or a file the CLI wrote; `launches`: pass 0's launch labels ([{"index", "context",
    "ranges"}], OpenGpaProfileGetLaunches). Without labels, a sample's NVTX ranges label it. A profile without a time
    counter whose samples all carry device times (the sampled mode's) gets a "duration" column, end_ns - start_ns."""
    labels = {launch["index"]: launch for launch in launches}
    counters = [Counter(index=i, name=c["name"], group="", description="", data_type=c.get("data_type", "float64"),
                        usage=c.get("usage", "")) for i, c in enumerate(document["counters"])]
    rows, values = [], []
    for sample in document["samples"]:
        label = labels.get(sample["index"], {})
        ranges = list(label.get("ranges", sample.get("nvtx", [])))
        context = label.get("context", "")
        rows.append({"index": sample["index"], "kernel": sample["kernel"], "grid": sample["grid"],
                     "block": sample["block"], "stream": sample["queue"],
                     "context": int(context, 16) if context and context != "(nil)" else 0,
                     "ranges": ranges, "region": ranges[-1] if ranges else "",
                     "thread": label.get("thread"), "host_ns": label.get("host_ns"),
                     "graph": sample.get("graph"), "start_ns": sample.get("start_ns"),
                     "end_ns": sample.get("end_ns")})
        values.append([np.nan if sample["values"].get(c.name) is None else sample["values"][c.name]
                       for c in counters])
    names = [c.name for c in counters]
    if rows and not any(name in names for name in Results.TIME_COLUMNS if name != DURATION) and \
            all(row["start_ns"] is not None and row["end_ns"] is not None for row in rows):
        # A sampled profile measures no time counter: its rows' own device times are their durations.
        counters.append(Counter(index=len(counters), name=DURATION, group="", description="end_ns - start_ns",
                                data_type="uint64", usage="nanoseconds"))
        for row, row_values in zip(rows, values):
            row_values.append(float(row["end_ns"] - row["start_ns"]))
    replay = document.get("replay", {})
    return KernelResults(rows, counters, np.array(values, dtype=np.float64).reshape(len(rows), len(counters)),
                         document.get("device", ""), replay.get("passes", 1), replay.get("mode", ""),
                         document.get("messages", []), document.get("api", "cuda"))


def load_profile(path: Union[str, os.PathLike]) -> KernelResults:
    """KernelResults of a profile JSON file that `opengpa profile` wrote (`-o prefix` gives prefix.json), of any
    API: `opengpa profile --api cl -o run -- ./app`, then `load_profile("run.json").table()`. ValueError when the
    file is no profile (its "schema" is not opengpa-profile/1)."""
    with open(path) as profile_file:
        document = json.load(profile_file)
    if not isinstance(document, dict) or document.get("schema") != "opengpa-profile/1":
        raise ValueError(f"{os.fspath(path)} is not an opengpa profile (no \"schema\": \"opengpa-profile/1\")")
    return results_from_profile(document)


def join_streams(stream_paths: Sequence[Union[str, os.PathLike]],
                 output_path: Union[str, os.PathLike]) -> Dict[str, Any]:
    """The sample streams of passes 0..n-1 joined launch by launch and evaluated by the C library
    (OpenGpaProfileJoin), as `opengpa profile`'s JSON document (a dict), also written to
    `output_path`. Needs no GPU: recorded streams can be joined anywhere."""
    library = load_library()
    paths = (ctypes.c_char_p * len(stream_paths))(*[os.fspath(path).encode() for path in stream_paths])
    _check("OpenGpaProfileJoin",
           library.OpenGpaProfileJoin(paths, len(stream_paths), os.fspath(output_path).encode()))
    with open(output_path) as joined:
        return json.load(joined)


def check_same_labels(passes: Sequence[Sequence[Sequence[str]]]) -> None:
    """Passes of an application replay must launch under the same regions: [[ranges per launch], ...] per
    pass. Raises OpenGpaError naming the first pass and launch that differ."""
    first = passes[0]
    for number, labels in enumerate(passes[1:], start=2):
        for position, (a, b) in enumerate(zip(first, labels)):
            if a != b:
                raise OpenGpaError(
                    "opengpa.Profile.run", 0,
                    detail=f"pass {number} made its launch {position + 1} inside regions {list(b)} where pass 1 "
                    f"had {list(a)}: every pass must repeat the same work with the same regions, so the passes "
                    "cannot be joined")
        if len(labels) != len(first):
            raise OpenGpaError(
                "opengpa.Profile.run", 0,
                detail=f"pass {number} made {len(labels)} kernel launches where pass 1 made {len(first)}: the step "
                "does not repeat its launches, so the passes cannot be joined (replay='kernel' replays each launch)")


def check_mode(mode: str, per_kernel: bool, replay: str, cache_control: Optional[str],
               sampling_interval_us: Optional[float]) -> None:
    """Refuses, with ValueError naming the argument, what `mode` cannot do (no GPU needed): the sampled mode is
    per kernel, runs once (no replay) and as the program runs (no L2 flush); an interval is the sampled mode's."""
    if mode not in MODES:
        raise ValueError(f'mode must be "exact" or "sampled", not {mode!r}')
    if mode == "exact":
        if sampling_interval_us is not None:
            raise ValueError('sampling_interval_us is for mode="sampled"')
        return
    if not per_kernel:
        raise ValueError('mode="sampled" gives one row per kernel launch: use it with per_kernel=True')
    if replay not in ("auto", "none"):
        raise ValueError(f'mode="sampled" runs the work once, nothing replayed: replay={replay!r} is not for it')
    if cache_control == "all":
        raise ValueError('mode="sampled" runs the program as it is: cache_control="all" (an L2 flush before each '
                         'launch) is the exact mode\'s')
    if sampling_interval_us is not None and (isinstance(sampling_interval_us, bool) or
                                             not isinstance(sampling_interval_us, (int, float)) or
                                             not 0.5 <= sampling_interval_us <= 1e6):
        raise ValueError(f"sampling_interval_us must be a number of microseconds from 0.5 to 1,000,000, not "
                         f"{sampling_interval_us!r}")


class KernelProfile:
    """Per-kernel profiling of the process's CUDA work. Made by `opengpa.profile(..., per_kernel=True)`."""

    def __init__(self, counters: Union[str, Sequence[str], None], replay: str = "auto",
                 cache_control: Optional[str] = None, kernel_name: str = "", nvtx: bool = True, device: int = 0,
                 stream_folder: Optional[Union[str, os.PathLike]] = None, mode: str = "exact",
                 sampling_interval_us: Optional[float] = None) -> None:
        """The options of `opengpa.profile(..., per_kernel=True)`, which says what each one does."""
        check_mode(mode, True, replay, cache_control, sampling_interval_us)
        self.mode = mode
        self.sampling_interval_us = float(sampling_interval_us or 0.0)
        if counters is None and mode == "exact":
            raise TypeError("opengpa.profile needs counters (GPA names or CUPTI metrics); only mode=\"sampled\" has "
                            "default ones")
        self.counter_names = _names(counters) if counters is not None else []
        if cache_control is None:
            cache_control = "all" if mode == "exact" else "none"
        if cache_control not in ("all", "none"):
            raise ValueError(f'cache_control must be "all" or "none", not {cache_control!r}')
        self.requested_replay = replay
        self.cache_control = cache_control
        self.kernel_name = kernel_name or ""
        self.nvtx = nvtx
        self.device = device
        self.stream_folder = stream_folder  # where the pass streams are kept (None: a temporary folder)
        self.replay = None
        self.pass_count = 0
        self.results = None
        self.messages = []
        self._folder = None
        self._streams = []  # one sample stream per recorded pass
        self._labels = []  # per pass: the ranges of each launch
        self._launches = None  # pass 0's launch labels
        self._running = False
        self._ran = False
        self._after_start = []  # called once the first pass has subscribed to CUPTI (torch_ops.TorchOps)

    # ---- lifetime --------------------------------------------------------------------------------------
    def __enter__(self) -> "KernelProfile":
        library = load_library()
        if self.mode == "sampled" and not hasattr(library, "OpenGpaProfileStartSampled"):
            raise OpenGpaError("opengpa.profile", -28,
                               detail="this libOpenGPAProfile.so implements API 1.0, which has no sampled session")
        context = _cuda.current_context(self.device)
        if self.mode == "sampled":
            self.replay, self.pass_count = "none", 1  # one run, nothing replayed
        else:
            counters = ",".join(self.counter_names).encode()
            plan = json.loads(_text("OpenGpaProfilePlan", context, counters, self.requested_replay.encode()))
            self.replay, self.pass_count = plan["replay"], plan["passes"]
            self.messages += plan.get("messages", [])
        if self.nvtx and "NVTX_INJECTION64_PATH" not in os.environ:
            # NVTX hands its calls to CUPTI when this names libcupti before the process's first NVTX call.
            os.environ["NVTX_INJECTION64_PATH"] = _text("OpenGpaProfileGetCuptiPath")
        self._library = library
        self._folder = self.stream_folder or tempfile.mkdtemp(prefix="opengpa-kernels-")
        os.makedirs(self._folder, exist_ok=True)
        if self.replay != "application":
            try:
                self._start(0)
            except Exception:
                if self.stream_folder is None:
                    shutil.rmtree(self._folder, ignore_errors=True)
                raise
        _push_profile(self)
        return self

    def __exit__(self, exc_type: Any, exc: Any, traceback: Any) -> bool:
        _pop_profile(self)
        try:
            if self._running:
                self._stop()
            if exc_type is None:
                if not self._streams:
                    raise OpenGpaError(
                        "opengpa.profile", -12,
                        detail=f"counters {self.counter_names} need {self.pass_count} passes of application replay: "
                        "put the work in a function and call p.run(step), or profile with replay='kernel'")
                self._finish()
        finally:
            if self.stream_folder is None:
                shutil.rmtree(self._folder, ignore_errors=True)
        return False

    # ---- passes ----------------------------------------------------------------------------------------
    def _start(self, pass_index):
        path = os.path.join(self._folder, f"pass{pass_index}.jsonl")
        if self.mode == "sampled":
            options = _SampledOptions(ctypes.sizeof(_SampledOptions), ",".join(self.counter_names).encode(),
                                      self.sampling_interval_us, self.kernel_name.encode(), path.encode(),
                                      os.path.join(self._folder, "sampled.json").encode(), 1 if self.nvtx else 0)
            _check("OpenGpaProfileStartSampled", self._library.OpenGpaProfileStartSampled(ctypes.byref(options)))
            self._running = True
            self._streams.append(path)
            while self._after_start:
                self._after_start.pop(0)()
            return
        options = _Options(ctypes.sizeof(_Options), ",".join(self.counter_names).encode(), self.replay.encode(),
                           pass_index, 1 if self.cache_control == "all" else 0, self.kernel_name.encode(),
                           path.encode(), 1 if self.nvtx else 0)
        _check("OpenGpaProfileStart", self._library.OpenGpaProfileStart(ctypes.byref(options)))
        self._running = True
        self._streams.append(path)
        while self._after_start:
            self._after_start.pop(0)()

    def _stop(self):
        _cuda.synchronize()  # the pass's work is done before its ranges are decoded
        self._running = False
        _check("OpenGpaProfileStop", self._library.OpenGpaProfileStop())
        launches = json.loads(_text("OpenGpaProfileGetLaunches"))
        with open(self._streams[-1][: -len(".jsonl")] + ".launches.json", "w") as labels:
            json.dump(launches, labels)  # kept beside the stream: what results_from_profile reads
        if self._launches is None:
            self._launches = launches
        self._labels.append([tuple(launch["ranges"]) for launch in launches])

    def run(self, step: Callable[[], Any], passes: Union[str, int] = "auto", setup: Optional[Callable[[], Any]] = None,
            name: Optional[str] = None) -> Any:
        """Calls `step()` once per pass (application replay; once when the set needs one pass or kernel
        replay collects it) and returns the last call's value. `passes`: "auto" or the most passes the
        caller accepts. `setup()` runs before each pass, unprofiled. `name`: a region around each call."""
        if self._ran:
            raise OpenGpaError("opengpa.Profile.run", 0, detail="a profile records one run()")
        if passes != "auto" and int(passes) < self.pass_count:
            raise OpenGpaError(
                "opengpa.Profile.run", -12,
                detail=f"counters {self.counter_names} need {self.pass_count} passes; passes={passes} allows fewer")
        self._ran = True
        calls = self.pass_count if self.replay == "application" else 1
        value = None
        for pass_index in range(calls):
            if setup is not None:
                setup()
            if self.replay == "application":
                _cuda.synchronize()
                self._start(pass_index)
            if name is None:
                value = step()
            else:
                with region(name):
                    value = step()
            if self.replay == "application":
                self._stop()
        return value

    # ---- regions: labels of the launches made while they are open ----------------------------------------
    def _begin_region(self, name):
        self._library.OpenGpaProfilePushRange(name.encode())

    def _end_region(self):
        self._library.OpenGpaProfilePopRange()

    # ---- results ---------------------------------------------------------------------------------------
    def _results(self, caller: str) -> KernelResults:
        if self.results is None:
            raise OpenGpaError(f"opengpa.KernelProfile.{caller}", 0,
                               detail="the profile has no results yet: call it after the profile's with block")
        return self.results

    def table(self, by: str = "kernel", sort_by: Optional[str] = None, row_limit: Optional[int] = None,
              width: Optional[int] = None) -> str:
        """`results.table(...)` (KernelResults.table), once the block has ended."""
        return self._results("table").table(by=by, sort_by=sort_by, row_limit=row_limit, width=width)

    def export_chrome_trace(self, path: Union[str, os.PathLike]) -> None:
        """`results.export_chrome_trace(path)`, once the block has ended (torch.profiler's spelling)."""
        self._results("export_chrome_trace").export_chrome_trace(path)

    def _finish(self):
        if self.mode == "sampled":
            # OpenGpaProfileStop wrote the rows (the CLI's writer): nothing is joined, every launch is one row.
            with open(os.path.join(self._folder, "sampled.json")) as document:
                self.results = results_from_profile(json.load(document), self._launches or [])
            self.messages += self.results.messages
            return
        check_same_labels(self._labels)
        document = join_streams(self._streams, os.path.join(self._folder, "joined.json"))
        self.results = results_from_profile(document, self._launches or [])
        self.messages += self.results.messages
