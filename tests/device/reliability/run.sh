#!/usr/bin/env bash
# Issue 35 on an NVIDIA GPU: what CI checks with OpenCL on PoCL and a fake NVML (tests/cli/cli_checks.py,
# tests/monitor), checked again where only a GPU can: `opengpa profile --api cuda`, whose samples are written by
# the CUDA injection (libopengpa_inject_cuda.so over libOpenGPAProfile.so, CUPTI's range profiler) inside the
# program, and `opengpa monitor` on the real libnvidia-ml.
#
#   tests/device/reliability/run.sh BUILD_DIR      (from the repository root; builds nothing)
#
# BUILD_DIR is a normal build with CUDA (scripts/configure.sh on the development machine): it must hold
# bin/opengpa, lib/libopengpa_inject_cuda.so and lib/libOpenGPAProfile.so. The CUDA program profiled is written
# here in Python (ctypes over libcuda.so.1, a PTX kernel the driver compiles): `launches` launches of a kernel
# that adds 1.0 to 64 floats, checked by the program itself. Needs python3, util-linux's unshare (a small tmpfs
# in a private mount namespace) and loopback TCP. Results (logs, outputs) go to $OUT or /tmp/opengpa-reliability.
#
# Checks (each PASS or FAIL with its figures; N/A only where this machine cannot make the fault, with the reason):
#   baseline  3000 launches profiled with no fault: exit 0, 3000 rows, 3000 samples in the JSON
#   N2 SIGINT Ctrl-C to the process group while the program runs (`sh -c 'python3 workload && ...'`: the shell
#             ends at once, Python by KeyboardInterrupt), then SIGINT to opengpa every 5 ms until it exits: exit
#             130, the signal named as arriving while the results were written, CSV/JSON/trace whole with one row
#             per launch that ran (the workload counts them on the GPU), the stream kept with as many samples
#   N2 SIGTERM the program's launches all made, SIGTERM to opengpa alone every 5 ms: exit 143, all 3000 rows
#   N3        the outputs' file system full (64 KiB tmpfs): exit 1, "No space left on device", every output under
#             its name whole or absent, no temporary file left, the stream kept with all 3000 samples
#   N4        $TMPDIR full (64 KiB tmpfs): non-zero exit, "sample stream truncated: No space left on device" (the
#             CUDA injection's own report, with errno), no "crash or _exit" blame, a prefix of the samples in order
#   N5        kill -9 of opengpa: the CUDA program is gone within 10 s; the next run names the stream left (16
#             samples) once
#   N1        `opengpa monitor --prometheus` on the real NVML, 200 silent + 50 trickling clients: 20 scrapes at 1 s
#             intervals (1 s timeout) all answered with the GPU's power, p99 under 1 s; and the same without them
# N6 (enum arguments read as ints) and N7 (overrides ignored in set-user-ID programs) need no GPU: CI checks them
# (UBSan; monitor.set_user_id_program_ignores_library_overrides). Results on the H100: docs/validation.md, row 43.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
[[ $# -ge 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
out=${OUT:-/tmp/opengpa-reliability}
mkdir -p "$out"

# CUPTI for the injected profiler (as tests/device/monitor/run.sh finds it).
cupti=""
for candidate in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13; do
  [[ -e $candidate ]] && { cupti=$candidate; break; }
done
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
if [[ -n $cupti ]]; then
  export OPENGPA_CUPTI_LIBRARY=$cupti
  export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # libnvperf_host beside it
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "libcupti: ${cupti:-not found}; build: $build; results: $out"

exec python3 - "$root" "$build" "$out" <<'PY'
import csv
import io
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

root, build, out = sys.argv[1:4]
sys.path.insert(0, os.path.join(root, "tests", "monitor"))
from prometheus_scrape_check import AbusiveClients  # noqa: E402 (the clients CI's Prometheus check uses)

OPENGPA = os.path.join(build, "bin", "opengpa")
LAUNCHES = 3000
COUNTERS = "gpu__time_duration.sum"
WORKLOAD = r'''
import atexit
import ctypes
import sys

PTX = b"""
.version 7.0
.target sm_75
.address_size 64
.visible .entry add_one(.param .u64 data, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [data];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd4], %f2;
DONE:
  ret;
}
"""
launches = int(sys.argv[1])
cuda = ctypes.CDLL("libcuda.so.1")
P, U, I, S = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_size_t
cuda.cuLaunchKernel.argtypes = [P, U, U, U, U, U, U, U, P, ctypes.POINTER(P), ctypes.POINTER(P)]
cuda.cuMemsetD32_v2.argtypes = [ctypes.c_uint64, U, S]
cuda.cuMemcpyDtoH_v2.argtypes = [P, ctypes.c_uint64, S]


def ok(result, what):
    if result != 0:
        sys.exit(f"workload: {what} returned CUresult {result}")


ok(cuda.cuInit(0), "cuInit")
device, context, module, function = I(), P(), P(), P()
ok(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
ok(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device), "cuDevicePrimaryCtxRetain")
ok(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
ok(cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(PTX)), "cuModuleLoadData")
ok(cuda.cuModuleGetFunction(ctypes.byref(function), module, b"add_one"), "cuModuleGetFunction")
n = 64
data, count = ctypes.c_uint64(), ctypes.c_uint32(n)
ok(cuda.cuMemAlloc_v2(ctypes.byref(data), S(n * 4)), "cuMemAlloc")
ok(cuda.cuMemsetD32_v2(data.value, 0, n), "cuMemsetD32")
params = (P * 2)(ctypes.cast(ctypes.byref(data), P), ctypes.cast(ctypes.byref(count), P))


def report_launches_run():
    # Every launch adds 1.0: the buffer counts the launches that ran, however the loop ended (an uncaught
    # KeyboardInterrupt runs this too, before the interpreter finalizes).
    cuda.cuCtxSynchronize()
    first = ctypes.c_float()
    cuda.cuMemcpyDtoH_v2(ctypes.byref(first), data.value, 4)
    print(f"workload: {int(first.value)} launches ran", file=sys.stderr, flush=True)


atexit.register(report_launches_run)
for launch in range(1, launches + 1):
    ok(cuda.cuLaunchKernel(function, 1, 1, 1, n, 1, 1, 0, None, params, None), "cuLaunchKernel")
    if launch % 500 == 0:
        print(f"progress: {launch} launches", flush=True)
ok(cuda.cuCtxSynchronize(), "cuCtxSynchronize")
host = (ctypes.c_float * n)()
ok(cuda.cuMemcpyDtoH_v2(host, data.value, n * 4), "cuMemcpyDtoH")
wrong = [v for v in host if v != float(launches)]
if wrong:
    sys.exit(f"workload: {len(wrong)} of {n} results wrong (first {wrong[0]}, expected {launches})")
print(f"launched {launches} kernels", flush=True)
'''

work = tempfile.mkdtemp(prefix="opengpa-reliability-")
workload = os.path.join(work, "cuda_workload.py")
with open(workload, "w") as f:
    f.write(WORKLOAD)
rows = []  # (check, status, figures)


class Failed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failed(message)


CHECKS = []


def check(name):
    def register(function):
        CHECKS.append((name, function))
        return function
    return register


def run_check(name, function):
    start = time.monotonic()
    try:
        rows.append((name, "PASS", function()))
    except Failed as failure:
        rows.append((name, "FAIL", str(failure)))
    except NotApplicable as reason:
        rows.append((name, "N/A", str(reason)))
    except Exception as error:  # a broken check is a failure, never a skip
        rows.append((name, "FAIL", f"{type(error).__name__}: {error}"))
    print(f"-- {name}: {rows[-1][1]} ({time.monotonic() - start:.1f} s)", flush=True)


class NotApplicable(Exception):
    pass


def log(name, result):
    """Writes a check's log to $OUT: a text, or a subprocess result's exit code and output."""
    if not isinstance(result, str):
        result = f"exit {result.returncode}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    with open(os.path.join(out, name + ".log"), "w") as f:
        f.write(result)


def program(launches, then_sleep=False):
    command = f"'{sys.executable}' '{workload}' {launches}"
    return ["sh", "-c", command + " && exec sleep 60"] if then_sleep else [sys.executable, workload, str(launches)]


def profile_args(prefix, launches, then_sleep=False):
    return [OPENGPA, "profile", "--api", "cuda", "--counters", COUNTERS, "-o", prefix, "--force", "--",
            *program(launches, then_sleep)]


def sample_lines(path):
    with open(path, errors="replace") as f:
        return sum(1 for line in f if line.startswith('{"type":"sample"'))


def kept_stream(stderr):
    for line in stderr.splitlines():
        if "kept at " in line:
            return line.split("kept at ", 1)[1].split(" ")[0].split(",")[0].rstrip(";")
    return None


def outputs_whole_or_absent(folder, prefix, launches):
    """Every output under its final name is whole; no temporary file beside them. Returns the whole ones."""
    names = sorted(os.listdir(folder))
    expect(not [n for n in names if ".opengpa-" in n], f"temporary files left: {names}")
    whole = []
    path = os.path.join(folder, prefix + ".csv")
    if os.path.exists(path):
        text = open(path).read()
        count = len(list(csv.DictReader(io.StringIO(text))))
        expect(text.endswith("\n") and count == launches, f"{path}: {count} rows of {launches}, cut short")
        whole.append("csv")
    for ext in (".json", ".trace.json"):
        path = os.path.join(folder, prefix + ext)
        if os.path.exists(path):
            try:
                json.load(open(path))
            except ValueError as error:
                raise Failed(f"{path} left invalid (partial): {error}")
            whole.append(ext[1:])
    return whole


def small_filesystem(folder, size_kib, argv, env, copy_to):
    """argv with `folder` a fresh tmpfs of size_kib KiB in a private mount namespace; what was left in it is
    copied to copy_to. N/A (with the reason) where this machine lets no namespace be made."""
    os.makedirs(folder, exist_ok=True)
    os.makedirs(copy_to, exist_ok=True)
    script = ('mount -t tmpfs -o size="$1"k opengpa-full "$2" || exit 97; dir="$2"; out="$3"; shift 3; '
              '"$@"; rc=$?; cp -a "$dir"/. "$out"/; exit $rc')
    ways = ([["unshare", "--mount"]] if os.geteuid() == 0 else []) + [["unshare", "--user", "--map-root-user",
                                                                       "--mount"]]
    refusals = []
    for way in ways:
        result = subprocess.run([*way, "sh", "-c", script, "sh", str(size_kib), folder, copy_to, *argv],
                                capture_output=True, text=True, env=env, timeout=600)
        if result.returncode != 97 and "unshare:" not in result.stderr:
            return result
        refusals.append(f"{' '.join(way)}: {result.stderr.strip()[:200]}")
    raise NotApplicable("no small file system can be made here (" + "; ".join(refusals) + ")")


def fresh(name):
    folder = os.path.join(work, name)
    os.makedirs(folder)
    return folder


def env_with_tmpdir(tmpdir):
    return dict(os.environ, TMPDIR=tmpdir)


@check("baseline: 3000 CUDA launches profiled, no fault")
def baseline():
    folder = fresh("baseline")
    tmpdir = fresh("baseline-tmp")
    start = time.monotonic()
    result = subprocess.run(profile_args(os.path.join(folder, "run"), LAUNCHES), capture_output=True, text=True,
                            env=env_with_tmpdir(tmpdir), timeout=600)
    seconds = time.monotonic() - start
    log("baseline", result)
    expect(result.returncode == 0, f"exit {result.returncode}: {result.stderr[-600:]}")
    expect(f"launched {LAUNCHES} kernels" in result.stdout, f"the program did not finish: {result.stdout[-300:]}")
    whole = outputs_whole_or_absent(folder, "run", LAUNCHES)
    expect(len(whole) == 3, f"outputs written: {whole}")
    doc = json.load(open(os.path.join(folder, "run.json")))
    expect(len(doc["samples"]) == LAUNCHES, f"{len(doc['samples'])} samples of {LAUNCHES}")
    times = [s["values"].get(COUNTERS) for s in doc["samples"]]
    expect(all(isinstance(t, (int, float)) and t > 0 for t in times), "a sample without a positive duration")
    expect(os.listdir(tmpdir) == [], f"temporary files left in TMPDIR: {os.listdir(tmpdir)}")
    return (f"exit 0, {LAUNCHES} rows/samples, {seconds:.1f} s, median {COUNTERS} "
            f"{statistics.median(times):.0f}")


def start_profile(prefix, env, launches, until):
    """Starts opengpa on the workload and returns once the workload printed a line holding `until`."""
    process = subprocess.Popen(profile_args(prefix, launches, then_sleep=True), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    deadline = time.monotonic() + 300
    for line in process.stdout:
        if until in line or time.monotonic() > deadline:
            break
    return process


def launches_ran(stderr):
    for line in stderr.splitlines():
        if line.startswith("workload: ") and line.endswith(" launches ran"):
            return int(line.split()[1])
    raise Failed(f"the workload did not say how many launches ran: {stderr[-400:]}")


def repeated_signal(number, to_group_first):
    """to_group_first: Ctrl-C at a terminal while the program runs (the program and opengpa both get it; a Python
    program ends by KeyboardInterrupt), then more to opengpa while it writes. Otherwise the signals go to opengpa
    alone once the program has made all its launches. Either way every launch that ran is in the outputs."""
    folder = fresh(f"signal-{number}")
    tmpdir = fresh(f"signal-{number}-tmp")
    process = start_profile(os.path.join(folder, "run"), env_with_tmpdir(tmpdir), LAUNCHES,
                            # late enough that the last batch takes long to decode (0.75 s with the L2 flush
                            # ordered on the GPU from the third batch on), so later signals land while it is written
                            "progress: 1500" if to_group_first else "launched")
    start = time.monotonic()
    if to_group_first:
        os.killpg(process.pid, number)  # Ctrl-C at a terminal: the program and opengpa both get it
    else:
        os.kill(process.pid, number)  # opengpa alone: it passes it on to the program
    sent = 1
    while process.poll() is None and sent < 3000:
        time.sleep(0.005)
        try:
            os.kill(process.pid, number)
            sent += 1
        except ProcessLookupError:
            break
    stdout, stderr = process.communicate(timeout=120)
    seconds = time.monotonic() - start
    name = signal.Signals(number).name
    log(f"n2-{name}", f"exit {process.returncode}, {sent} signals\n--- stdout\n{stdout}\n--- stderr\n{stderr}")
    expect(process.returncode == 128 + number, f"{name} x{sent}: exit {process.returncode}, expected "
                                               f"{128 + number}: {stderr[-600:]}")
    expect("arrived while the results were written" in stderr, f"no {name} landed after the program ended: "
                                                               f"{stderr[-400:]}")
    ran = launches_ran(stderr)
    expect("without writing its end record" not in stderr, f"a process lost its last batch: {stderr[-600:]}")
    whole = outputs_whole_or_absent(folder, "run", ran)
    expect(len(whole) == 3, f"only {whole} written")
    stream = kept_stream(stderr)
    expect(stream is not None and os.path.exists(stream), f"the stream is not kept and named: {stderr[-400:]}")
    kept = sample_lines(stream)
    expect(kept == ran, f"the kept stream holds {kept} of the {ran} launches that ran")
    return (f"{sent} x {name} over {seconds:.1f} s: exit {process.returncode}, csv/json/trace whole "
            f"({ran} rows = launches that ran), stream kept ({kept} samples)")


@check("N2 double Ctrl-C: SIGINT to the group mid-run, then to opengpa every 5 ms")
def sigint():
    return repeated_signal(signal.SIGINT, True)


@check("N2 SIGTERM to opengpa every 5 ms")
def sigterm():
    return repeated_signal(signal.SIGTERM, False)


@check("N3 outputs' file system full (64 KiB tmpfs)")
def full_outputs():
    folder = os.path.join(work, "full-out")
    left = fresh("full-out-left")
    tmpdir = fresh("full-out-tmp")
    result = small_filesystem(folder, 64, profile_args(os.path.join(folder, "run"), LAUNCHES),
                              env_with_tmpdir(tmpdir), left)
    log("n3", result)
    expect(result.returncode == 1, f"exit {result.returncode} (a failed output is 1): {result.stderr[-600:]}")
    expect("No space left on device" in result.stderr, f"the reason is not named: {result.stderr[-600:]}")
    whole = outputs_whole_or_absent(left, "run", LAUNCHES)
    expect(len(whole) < 3, f"all outputs fit in 64 KiB ({whole}): the file system never filled")
    stream = kept_stream(result.stderr)
    expect(stream is not None and os.path.exists(stream), f"the stream is not kept and named: {result.stderr[-600:]}")
    kept = sample_lines(stream)
    expect(kept == LAUNCHES, f"the kept stream holds {kept} of {LAUNCHES} samples")
    expect(os.path.dirname(stream) == tmpdir, f"the stream was kept outside $TMPDIR: {stream}")
    return f"exit 1, whole: {whole or 'none'}, no partial file, stream kept ({kept} samples)"


@check("N4 $TMPDIR full (64 KiB tmpfs) while the CUDA injection writes")
def full_tmpdir():
    tmpdir = os.path.join(work, "full-tmp")
    left = fresh("full-tmp-left")
    folder = fresh("full-tmp-out")
    result = small_filesystem(tmpdir, 64, profile_args(os.path.join(folder, "run"), LAUNCHES),
                              env_with_tmpdir(tmpdir), left)
    log("n4", result)
    expect(result.returncode != 0, f"exit 0 with a truncated stream: {result.stderr[-600:]}")
    expect("sample stream truncated: No space left on device" in result.stderr,
           f"the truncation and its reason are not named: {result.stderr[-600:]}")
    expect("crash or _exit" not in result.stderr, "the truncation is blamed on the program")
    expect(f"launched {LAUNCHES} kernels" in result.stdout, f"the program itself failed: {result.stdout[-300:]}"
                                                            f"{result.stderr[-300:]}")
    doc = json.load(open(os.path.join(folder, "run.json")))
    samples = len(doc["samples"])
    expect(0 < samples < LAUNCHES, f"{samples} samples: the stream was not cut short?")
    indices = [s["index"] for s in doc["samples"]]
    expect(indices == sorted(set(indices)), "samples out of order or repeated")
    expect(any("sample stream truncated" in m for m in doc["messages"]), f"JSON messages: {doc['messages']}")
    line = next(line for line in result.stderr.splitlines() if "sample stream truncated" in line)
    return f"exit {result.returncode}, {samples} of {LAUNCHES} samples kept in order; '{line.split(': ', 1)[1][:110]}'"


def children_of(pid):
    children = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            children += [int(c) for c in f.read().split()]
    return children


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@check("N5 kill -9 of opengpa, then the next run")
def killed():
    tmpdir = fresh("killed-tmp")
    env = env_with_tmpdir(tmpdir)
    process = start_profile(os.path.join(work, "killed"), env, 16, "launched")
    children = children_of(process.pid)
    expect(len(children) == 1, f"the program is not opengpa's one child: {children}")
    process.kill()
    process.wait(timeout=30)
    start = time.monotonic()
    while alive(children[0]) and time.monotonic() - start < 10:
        time.sleep(0.05)
    gone_after = time.monotonic() - start
    survived = alive(children[0])
    if survived:
        os.kill(children[0], signal.SIGKILL)
    expect(not survived, "the CUDA program ran on after opengpa was killed")
    left = [n for n in os.listdir(tmpdir) if n.startswith("opengpa-samples-")]
    expect(len(left) == 1, f"stream files in TMPDIR: {left}")
    next_run = subprocess.run(profile_args(os.path.join(work, "next"), 1), capture_output=True, text=True, env=env,
                              timeout=300)
    log("n5", next_run)
    kept = os.path.join(tmpdir, left[0] + ".jsonl")
    expect(f"kept at {kept} (16 samples," in next_run.stderr, f"the leftover is not named: {next_run.stderr[-600:]}")
    again = subprocess.run(profile_args(os.path.join(work, "next"), 1), capture_output=True, text=True, env=env,
                           timeout=300)
    expect("earlier run" not in again.stderr, "a leftover is named twice")
    return f"program gone {gone_after:.2f} s after opengpa; next run named {os.path.basename(kept)} (16 samples) once"


def scrape(port):
    start = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1.0) as response:
            body = response.read().decode()
            status = response.status
    except Exception as error:
        return None, time.monotonic() - start, str(error)
    watts = [float(line.rsplit(" ", 1)[1]) for line in body.splitlines()
             if line.startswith("opengpa_power_watts") and " " in line]
    return (watts[0] if status == 200 and watts else None), time.monotonic() - start, f"HTTP {status}"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@check("N1 metrics endpoint on the real NVML, 200 silent + 50 trickling clients")
def endpoint():
    log_path = os.path.join(out, "n1-monitor.log")
    monitor_log = open(log_path, "w+")
    monitor = subprocess.Popen([OPENGPA, "monitor", "--prometheus", "127.0.0.1:0", "--counters", "power_watts",
                                "--interval-ms", "100", "--duration-s", "90"], stdout=subprocess.DEVNULL,
                               stderr=monitor_log)
    try:
        port, start = None, time.monotonic()
        while port is None and time.monotonic() - start < 20 and monitor.poll() is None:
            monitor_log.seek(0)
            for line in monitor_log.read().splitlines():
                if "serving http://127.0.0.1:" in line:
                    port = int(line.split("127.0.0.1:", 1)[1].split("/", 1)[0])
            time.sleep(0.1)
        monitor_log.seek(0)
        expect(port is not None, f"opengpa monitor did not serve: {monitor_log.read()[-600:]}")
        time.sleep(1.5)  # a first sample
        quiet = []
        for _ in range(10):
            quiet.append(scrape(port))
            time.sleep(0.2)
        abuse = AbusiveClients(port, 200, 50)
        pressed = []
        try:
            time.sleep(2)  # every abusive connection open
            for _ in range(20):
                begin = time.monotonic()
                pressed.append(scrape(port))
                time.sleep(max(0.0, 1.0 - (time.monotonic() - begin)))
        finally:
            abuse.stop()
        expect(monitor.poll() is None, f"opengpa monitor exited ({monitor.returncode}) under the clients")
    finally:
        monitor.terminate()
        try:
            monitor.wait(timeout=10)
        except subprocess.TimeoutExpired:
            monitor.kill()
    bad = [(w, round(s, 3), why) for w, s, why in quiet + pressed if w is None]
    expect(not bad, f"{len(bad)} of {len(quiet) + len(pressed)} scrapes got no power value: {bad[:3]}")
    watts = [w for w, _, _ in pressed]
    expect(all(w != 123.456 and 1 < w < 2000 for w in watts), f"not a GPU's power: {watts[:3]} W (the fake's?)")
    seconds = [s for _, s, _ in pressed]
    p99 = percentile(seconds, 0.99)
    expect(p99 < 1.0, f"p99 {p99:.3f} s under the clients")
    quiet_s = [s for _, s, _ in quiet]
    return (f"20/20 scrapes answered under the clients: p50 {statistics.median(seconds) * 1000:.1f} ms, p99 "
            f"{p99 * 1000:.1f} ms (quiet: p50 {statistics.median(quiet_s) * 1000:.1f} ms); "
            f"{abuse.connects} connections opened, {abuse.closed_by_server} cut by the server; power {watts[-1]:.1f} W")


needed = (OPENGPA, os.path.join(build, "lib", "libopengpa_inject_cuda.so"),
          os.path.join(build, "lib", "libOpenGPAProfile.so"))
missing = [f for f in needed if not os.path.exists(f)]
if missing:
    rows.append(("build", "FAIL", f"missing (a normal build with CUDA is needed): {', '.join(missing)}"))
else:
    for name, function in CHECKS:
        run_check(name, function)

shutil.rmtree(work, ignore_errors=True)
width = max(len(name) for name, _, _ in rows)
print()
print(f"{'check'.ljust(width)}  status  figures")
for name, status, figures in rows:
    print(f"{name.ljust(width)}  {status.ljust(6)}  {figures}")
failed = [name for name, status, _ in rows if status == "FAIL"]
print(f"\n{len(rows) - len(failed)} of {len(rows)} not failed; logs in {out}")
sys.exit(1 if failed else 0)
PY
