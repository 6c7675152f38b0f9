#!/usr/bin/env bash
# `opengpa doctor` on an NVIDIA GPU (the H100 of the device machine): every API present — CUDA, Vulkan, OpenGL
# through EGL, OpenCL — and the monitor (NVML, CUPTI PM sampling) must pass on the GPU, with the measured values and
# their truths in the JSON. In CI the same command runs on lavapipe, llvmpipe and PoCL (tests/doctor).
#
#   tests/device/doctor/run.sh BUILD_DIR
#
# BUILD_DIR is an OpenGPA build (or install) that already holds bin/opengpa, lib/libGPUPerfAPI*.so,
# lib/libOpenGPAMonitor.so and libexec/opengpa/opengpa-doctor-*; this script builds nothing. Built with
# `cmake -G Ninja -B build-device-doctor -S . -DCMAKE_BUILD_TYPE=Release && ninja -C build-device-doctor opengpa`
# (the opengpa target builds every probe and the libraries they load).
#
# What the machine needs: the NVIDIA driver (libcuda, libnvidia-ml), the CUDA toolkit's CUPTI (found under
# /usr/local/cuda, or named by OPENGPA_CUPTI_LIBRARY), and for the graphics APIs their loaders (libvulkan.so.1,
# libEGL.so.1 of libglvnd, libOpenCL.so.1: on the device machine `for f in .gl/*.deb; do dpkg -x $f /; done;
# ldconfig`). The script points the loaders at the NVIDIA driver where the device machine mounts it, unless the
# caller already did:
#   VK_DRIVER_FILES                  /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json (so lavapipe cannot win)
#   __EGL_VENDOR_LIBRARY_FILENAMES   /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
#   OPENGPA_EGL_PLATFORM=device      the EGL device platform (no display)
#   OPENGPA_CL_PLATFORM=NVIDIA       the NVIDIA OpenCL platform (an ICD file is written if none names it)
# An API whose loader or driver is missing is expected absent (SKIP, with the reason); one whose driver is there
# must pass on an NVIDIA device.
#
# Checks (a PASS/FAIL table at the end; exit status = the number of FAIL lines):
#   1. `opengpa doctor --format json`: the document's key fields as docs/schema/doctor.schema.json has them (and
#      the whole schema when python3-jsonschema is installed); exit_code equals the process's; every expected API
#      `pass` on a device named NVIDIA/H100 (not a software driver), each check's measured value within its
#      tolerance of its truth (recomputed here), the figures printed; the whole run under 30 s (issue 31).
#   2. `opengpa doctor` (table): exit code as the JSON's, one line per API with its verdict.
#   3. `opengpa doctor --quick --format json`: passes too; its time.
#   4. The privilege seam: OPENGPA_DOCTOR_CUPTI_RESULT=CUPTI_ERROR_INSUFFICIENT_PRIVILEGES makes `--api cuda` exit 4
#      with cause profiling_not_permitted naming NVreg_RestrictProfilingToAdminUsers=0 and CAP_SYS_ADMIN.
# Results go to $OUT (the device tool's folder) or out/device-doctor.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
if [[ $# -lt 1 ]]; then
  echo "usage: $0 BUILD_DIR (an OpenGPA build holding bin/opengpa and libexec/opengpa)" >&2
  exit 2
fi
build=$1
[[ $build = /* ]] || build=$PWD/$build
opengpa=$build/bin/opengpa
schema=$root/docs/schema/doctor.schema.json
out=${OUT:-$root/out/device-doctor}
mkdir -p "$out"
if [[ ! -x $opengpa || ! -d $build/libexec/opengpa ]]; then
  echo "run.sh: no $opengpa or $build/libexec/opengpa: build the opengpa target first (see this script's header)" >&2
  exit 2
fi
echo "probes: $(cd "$build/libexec/opengpa" && ls | tr '\n' ' ')"

# --- the machine
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader |
  tee "$out/gpu.txt"
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -z ${VK_DRIVER_FILES:-} && -e $nvidia_icd ]] && export VK_DRIVER_FILES=$nvidia_icd
nvidia_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[[ -z ${__EGL_VENDOR_LIBRARY_FILENAMES:-} && -e $nvidia_egl ]] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_egl
export OPENGPA_EGL_PLATFORM=${OPENGPA_EGL_PLATFORM:-device}
export OPENGPA_CL_PLATFORM=${OPENGPA_CL_PLATFORM:-NVIDIA}
has_library() { ldconfig -p | grep -q "$1" || [[ -n $(find /usr/local/nvidia /usr/lib /usr/lib64 -name "$1*" 2>/dev/null | head -n 1) ]]; }
if has_library libOpenCL.so.1 && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  library=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
  [[ -n $library ]] || library=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -n 1)
  if [[ -n $library ]] && mkdir -p /etc/OpenCL/vendors 2>/dev/null && echo "$library" >/etc/OpenCL/vendors/nvidia.icd; then
    echo "run.sh: wrote /etc/OpenCL/vendors/nvidia.icd -> $library"
  fi
fi
cupti=${OPENGPA_CUPTI_LIBRARY:-}
if [[ -z $cupti ]]; then
  for candidate in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13; do
    [[ -e $candidate ]] && { cupti=$candidate; break; }
  done
fi
if [[ -n $cupti ]]; then
  export OPENGPA_CUPTI_LIBRARY=$cupti  # the monitor's PM sampling
  export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # libnvperf_host beside it
fi
echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-} __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-}"
echo "OPENGPA_EGL_PLATFORM=$OPENGPA_EGL_PLATFORM OPENGPA_CL_PLATFORM=$OPENGPA_CL_PLATFORM CUPTI=${cupti:-not found}"

# Which APIs this machine should pass: the driver (nvidia-smi) for CUDA and the monitor, plus each API's loader
# and NVIDIA driver file for the graphics and compute APIs.
expected=""
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then expected+=" cuda monitor"; fi
if has_library libvulkan.so.1 && [[ -n ${VK_DRIVER_FILES:-} || -n $(ls /usr/share/vulkan/icd.d/nvidia* /etc/vulkan/icd.d/nvidia* 2>/dev/null) ]]; then
  expected+=" vk"
fi
if has_library libEGL.so.1 && has_library libEGL_nvidia.so; then expected+=" gl"; fi
if has_library libOpenCL.so.1 && grep -qs nvidia /etc/OpenCL/vendors/*.icd; then expected+=" cl"; fi
echo "expected to pass:$expected"

# --- the runs
run_timed() {  # run_timed NAME ARGS...: stdout to $out/NAME, stderr to $out/NAME.err, exit code and seconds to $out/NAME.rc
  local name=$1; shift
  local begin end status
  begin=$(date +%s.%N)
  "$@" >"$out/$name" 2>"$out/$name.err"; status=$?
  end=$(date +%s.%N)
  echo "$status $(python3 -c "print(f'{$end - $begin:.2f}')")" >"$out/$name.rc"
}
run_timed doctor.json "$opengpa" doctor --format json
run_timed doctor.txt "$opengpa" doctor
run_timed quick.json "$opengpa" doctor --quick --format json
OPENGPA_DOCTOR_CUPTI_RESULT=CUPTI_ERROR_INSUFFICIENT_PRIVILEGES run_timed seam.json "$opengpa" doctor --api cuda --format json
echo "== opengpa doctor (table)"
cat "$out/doctor.txt"

# --- the verdicts
python3 - "$out" "$schema" "$expected" <<'PY'
import json, math, os, sys

out, schema_path, expected = sys.argv[1], sys.argv[2], sys.argv[3].split()
rows, failures = [], 0


def line(verdict, what, figures=""):
    global failures
    failures += verdict == "FAIL"
    rows.append((verdict, what, figures))


def load(name):
    status, seconds = open(os.path.join(out, name + ".rc")).read().split()
    text = open(os.path.join(out, name)).read()
    try:
        return json.loads(text), int(status), float(seconds)
    except json.JSONDecodeError:
        return None, int(status), float(seconds)


schema = json.load(open(schema_path))
backend_schema = schema["definitions"]["backend"]
check_schema = schema["definitions"]["check"]
try:
    import jsonschema
    validator = jsonschema.Draft7Validator(schema)
except ImportError:
    validator = None


def key_field_errors(document):
    """The schema's key fields, checked without jsonschema: required keys, enums, types."""
    errors = []
    for key in schema["required"]:
        if key not in document:
            errors.append(f"no {key}")
    if document.get("schema") != schema["properties"]["schema"]["const"]:
        errors.append(f"schema {document.get('schema')!r}")
    if document.get("exit_code") not in schema["properties"]["exit_code"]["enum"]:
        errors.append(f"exit_code {document.get('exit_code')!r}")
    for backend in document.get("backends", []):
        api = backend.get("api")
        for key in backend_schema["required"]:
            if key not in backend:
                errors.append(f"{api}: no {key}")
        if api not in backend_schema["properties"]["api"]["enum"]:
            errors.append(f"api {api!r}")
        if backend.get("status") not in backend_schema["properties"]["status"]["enum"]:
            errors.append(f"{api}: status {backend.get('status')!r}")
        if backend.get("status") == "absent" and not backend.get("reason"):
            errors.append(f"{api}: absent without a reason")
        if backend.get("status") in ("fail", "unusable") and not backend.get("causes"):
            errors.append(f"{api}: {backend['status']} without a cause")
        for check in backend.get("checks", []):
            for key in check_schema["required"]:
                if key not in check:
                    errors.append(f"{api}: check {check.get('name')!r} has no {key}")
            if check.get("unit") not in check_schema["properties"]["unit"]["enum"]:
                errors.append(f"{api}: unit {check.get('unit')!r}")
            if check.get("tolerance", {}).get("kind") not in check_schema["properties"]["tolerance"]["properties"]["kind"]["enum"]:
                errors.append(f"{api}: tolerance {check.get('tolerance')!r}")
        for cause in backend.get("causes", []):
            if not (cause.get("id") and cause.get("message") and cause.get("fix")):
                errors.append(f"{api}: cause without id, message or fix: {cause}")
    if validator is not None:
        errors += [f"schema: {e.message} at {list(e.path)}" for e in validator.iter_errors(document)]
    return errors


def holds(check):
    """The tolerance, recomputed here from measured and truth (not the doctor's verdict)."""
    measured, truth, tolerance = check["measured"], check["truth"], check["tolerance"]
    if measured is None or not math.isfinite(measured):
        return False
    kind = tolerance["kind"]
    if kind == "exact":
        return measured == truth
    if kind == "relative":
        return abs(measured - truth) <= tolerance["fraction"] * abs(truth)
    if kind == "positive_at_most":
        return 0 < measured <= truth
    return measured >= truth  # at_least


def figure(value):
    if value is None:
        return "NaN"
    return f"{value:.0f}" if value == int(value) and abs(value) < 1e15 else f"{value:.6g}"


# 1. the full run, as JSON
document, status, seconds = load("doctor.json")
if document is None:
    line("FAIL", "doctor --format json gives JSON", f"exit {status}; see doctor.json.err")
else:
    errors = key_field_errors(document)
    line("FAIL" if errors else "PASS", "JSON has the schema's key fields" + (" (and validates)" if validator else ""),
         "; ".join(errors[:5]) or f"{len(document['backends'])} backends")
    line("PASS" if document["exit_code"] == status else "FAIL", "exit code is the document's",
         f"process {status}, document {document['exit_code']}")
    line("PASS" if status == 0 else "FAIL", "doctor exits 0 (every API present passed)", f"exit {status}")
    line("PASS" if seconds < 30 else "FAIL", "doctor runs in under 30 s", f"{seconds:.1f} s (document {document['seconds']:.1f} s)")
    for backend in document["backends"]:
        api, verdict = backend["api"], backend["status"]
        device = backend["driver"].get("device", "")
        took = backend.get("probe", {}).get("seconds", 0)
        if api not in expected:
            line("SKIP" if verdict == "absent" else ("PASS" if verdict == "pass" else "FAIL"),
                 f"{api}: not expected here", f"{verdict}: {backend.get('reason', device)}")
            continue
        causes = "; ".join(f"{c['id']}: {c['message'][:160]}" for c in backend["causes"])
        line("PASS" if verdict == "pass" else "FAIL", f"{api}: pass", f"{verdict} on {device or '?'} in {took:.1f} s" +
             (f"; {causes}" if causes else "") + (f"; {backend.get('reason')}" if verdict == "absent" else ""))
        if verdict != "absent" and api != "monitor":
            line("PASS" if "NVIDIA" in device.upper() or "H100" in device.upper() else "FAIL",
                 f"{api}: measured on the NVIDIA GPU", repr(device))
        for check in backend["checks"]:
            counter = check["counter"] or "(workload)"
            agrees = holds(check) == (check["verdict"] == "pass")
            line("PASS" if holds(check) and agrees else "FAIL", f"{api}: {counter} of {check['name']}",
                 f"{figure(check['measured'])} vs {figure(check['truth'])} {check['unit']} ({check['tolerance']['text']})"
                 + ("" if agrees else f"; the doctor said {check['verdict']}"))

# 2. the table
table = open(os.path.join(out, "doctor.txt")).read().splitlines()
_, table_status, table_seconds = load("doctor.txt")
if document is not None:
    missing = [b["api"] for b in document["backends"]
               if not any(l.split()[:2] == [b["api"], b["status"]] for l in table if l.strip())]
    line("PASS" if table_status == document["exit_code"] and not missing and table and table[0].startswith("opengpa doctor:")
         else "FAIL", "table: a verdict line per API, same exit code",
         f"exit {table_status}, {table_seconds:.1f} s" + (f"; no line for {missing}" if missing else ""))

# 3. --quick
quick, quick_status, quick_seconds = load("quick.json")
if quick is None:
    line("FAIL", "doctor --quick gives JSON", f"exit {quick_status}")
else:
    errors = key_field_errors(quick)
    passed = [b["api"] for b in quick["backends"] if b["status"] == "pass"]
    line("PASS" if quick_status == 0 and not errors and quick["quick"] is True and set(expected) <= set(passed) else "FAIL",
         "doctor --quick passes every expected API", f"exit {quick_status}, {quick_seconds:.1f} s, passed {passed}"
         + (f"; {errors[:3]}" if errors else ""))

# 4. the privilege seam
seam, seam_status, _ = load("seam.json")
if seam is None or not seam["backends"]:
    line("FAIL", "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES seam gives JSON", f"exit {seam_status}")
else:
    cuda = seam["backends"][0]
    causes = {c["id"]: c["message"] + " " + c["fix"] for c in cuda["causes"]}
    text = causes.get("profiling_not_permitted", "")
    named = all(word in text for word in ("NVreg_RestrictProfilingToAdminUsers=0", "CAP_SYS_ADMIN", "modprobe"))
    line("PASS" if seam_status == 4 and cuda["status"] == "unusable" and named else "FAIL",
         "privilege refusal: exit 4, profiling_not_permitted with its fix",
         f"exit {seam_status}, {cuda['status']}, causes {sorted(causes)}")

width = max(len(what) for _, what, _ in rows)
summary = [f"{verdict:<4}  {what:<{width}}  {figures}" for verdict, what, figures in rows]
summary.append(f"{failures} FAIL, {sum(v == 'PASS' for v, _, _ in rows)} PASS, {sum(v == 'SKIP' for v, _, _ in rows)} SKIP")
open(os.path.join(out, "summary.txt"), "w").write("\n".join(summary) + "\n")
print("\n== tests/device/doctor")
print("\n".join(summary))
sys.exit(min(failures, 125))
PY
status=$?
echo "run.sh: results in $out"
exit $status
