#!/usr/bin/env python3
"""OpenGPA on a machine without CUDA, run by ctest (tests/cli/CMakeLists.txt).

Usage: without_cuda_check.py CHECK --opengpa PATH --library-dir DIR --python-dir DIR [--also FILE]...

CUDA is hidden from the programs under test, not uninstalled: in a private mount namespace (`unshare`) every
CUDA library file the machine has (libcuda, libcupti, libcudart, libnvperf_*, libnvidia-ml, found through
`ldconfig -p`, the toolkit's usual folders and the build's CUPTI folder) is covered by /dev/null, so neither the
dynamic loader nor a dlopen by path can load one. Where namespaces are not allowed (an unprivileged container),
the programs run under the dynamic loader with its cache ignored and a search path without CUDA's folders
(`ld.so --inhibit-cache --library-path ...`): libcupti is then off the loader's path, which is what a NEEDED
entry would need; a library's own RUNPATH would still reach the toolkit, so the libraries exercised must name no
folder holding CUDA, and since a dlopen by absolute path could still find the toolkit, the check that the CUDA
parts say CUPTI is missing runs only in the first mode. Either way the check first proves that libcupti cannot be
loaded in the environment it built.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

CUDA_LIBRARY = re.compile(r"^lib(cuda|cupti|cudart|nvperf_host|nvperf_target|nvidia-ml)\.so")
TOOLKITS = ["/usr/local/cuda", "/opt/cuda", "/usr/lib/cuda"] + sorted(glob.glob("/usr/local/cuda-*"))
TOOLKIT_FOLDERS = ["extras/CUPTI/lib64", "lib64", "lib", "targets/*/lib"]

CHECKS = {}


def check(function):
    CHECKS[function.__name__] = function
    return function


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def needed_libraries(path):
    result = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", result.stdout)


def search_folders(path):
    """The RUNPATH and RPATH folders of `path`, $ORIGIN resolved."""
    result = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True)
    folders = []
    for entry in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]", result.stdout):
        folders += [f.replace("$ORIGIN", os.path.dirname(path)) for f in entry.split(":") if f]
    return folders


def built_binaries(args):
    libraries = sorted(glob.glob(os.path.join(args.library_dir, "*.so")))
    probes = sorted(glob.glob(os.path.join(os.path.dirname(args.opengpa), "..", "libexec", "opengpa", "*")))
    return [args.opengpa] + libraries + probes + args.also


@check
def no_built_library_needs_a_cuda_library(args):
    """readelf -d of the CLI, every library and the doctor's probes: no NEEDED libcupti, libcuda, ..."""
    offenders = {}
    binaries = built_binaries(args)
    expect(any(path.endswith("libGPUPerfAPICounters.so") for path in binaries),
           f"libGPUPerfAPICounters.so is not in {args.library_dir}")
    for path in binaries:
        cuda = [name for name in needed_libraries(path) if CUDA_LIBRARY.match(name)]
        if cuda:
            offenders[os.path.basename(path)] = cuda
    expect(not offenders, f"libraries that cannot load without CUDA (NEEDED): {offenders}")


def cuda_library_files():
    """Every CUDA library file the dynamic loader or a dlopen by path could find, as real paths."""
    folders = set()
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    if os.path.exists(ldconfig):
        listing = subprocess.run([ldconfig, "-p"], capture_output=True, text=True).stdout
        for path in re.findall(r"=> (\S+)", listing):
            if CUDA_LIBRARY.match(os.path.basename(path)):
                folders.add(os.path.dirname(path))
    for toolkit in TOOLKITS:
        for pattern in TOOLKIT_FOLDERS:
            folders.update(glob.glob(os.path.join(toolkit, pattern)))
    for variable in ("LD_LIBRARY_PATH",):
        folders.update(folder for folder in os.environ.get(variable, "").split(":") if folder)
    files = set()
    for folder in folders:
        for path in glob.glob(os.path.join(folder, "lib*.so*")):
            if CUDA_LIBRARY.match(os.path.basename(path)):
                files.add(os.path.realpath(path))
    return sorted(files)


def loader_folders_without_cuda():
    """The folders of /etc/ld.so.conf (and the default ones) that hold no CUDA library."""
    folders = []

    def read(conf):
        try:
            with open(conf) as f:
                lines = f.read().splitlines()
        except OSError:
            return
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line.startswith("include "):
                for included in sorted(glob.glob(line.split(None, 1)[1])):
                    read(included)
            elif line:
                folders.append(line)

    read("/etc/ld.so.conf")
    folders += ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"]
    return [folder for folder in dict.fromkeys(folders) if os.path.isdir(folder) and
            not any(CUDA_LIBRARY.match(name) for name in os.listdir(folder))]


class HiddenCuda:
    """Runs commands where CUDA's libraries cannot be loaded."""

    def __init__(self, args):
        self.args = args
        self.files = cuda_library_files()
        self.namespace = self._namespace_works()
        self.loader = None
        if not self.namespace:
            loaders = glob.glob("/lib64/ld-linux-*.so.*") + glob.glob("/lib/ld-linux-*.so.*")
            expect(loaders, "neither mount namespaces nor a glibc dynamic loader to hide CUDA with")
            search = [args.library_dir] + loader_folders_without_cuda()
            self.loader = [loaders[0], "--inhibit-cache", "--library-path", ":".join(search)]
        print(f"CUDA hidden by {'a mount namespace' if self.namespace else 'the loader path'}; "
              f"{len(self.files)} CUDA library files on this machine")

    def _in_namespace(self, argv):
        mounts = " && ".join(f"mount --bind /dev/null '{path}'" for path in self.files) or "true"
        unshare = ["unshare", "--mount"] + ([] if os.geteuid() == 0 else ["--user", "--map-root-user"])
        return unshare + ["sh", "-c", f'{mounts} && exec "$@"', "hidden-cuda"] + argv

    def _wrap(self, argv):
        return self._in_namespace(argv) if self.namespace else self.loader + argv

    def _namespace_works(self):
        if not shutil.which("unshare"):
            return False
        try:
            probe = subprocess.run(self._in_namespace(["true"]), capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return probe.returncode == 0

    def run(self, argv, env=None):
        environment = dict(os.environ, **(env or {}))
        environment.pop("LD_LIBRARY_PATH", None)
        environment.pop("OPENGPA_CUPTI_LIBRARY", None)
        if not self.namespace:
            # Under ld.so, /proc/self/exe is the loader: the CLI finds its libraries through LD_LIBRARY_PATH instead
            # (the build's lib folder only; the loader itself searches --library-path).
            environment["LD_LIBRARY_PATH"] = self.args.library_dir
        return subprocess.run(self._wrap(argv), capture_output=True, text=True, timeout=300, env=environment)

    def python(self, code):
        env = {"PYTHONPATH": self.args.python_dir, "OPENGPA_LIBRARY_DIR": self.args.library_dir,
               "PYTHONDONTWRITEBYTECODE": "1"}
        return self.run([sys.executable, "-c", code], env=env)


def expect_ok(result, what):
    expect(result.returncode == 0, f"{what} failed with CUDA hidden (exit {result.returncode}):\n"
                                   f"{result.stdout[-2000:]}\n{result.stderr[-4000:]}")


@check
def list_and_the_counter_library_work_with_cuda_hidden(args):
    hidden = HiddenCuda(args)
    # The environment is what it claims: libcupti cannot be loaded, by soname nor (in a namespace) by path.
    candidates = ["libcupti.so.13", "libcupti.so"] + (hidden.files if hidden.namespace else [])
    probe = hidden.python("import ctypes, sys\n"
                          f"for name in {candidates!r}:\n"
                          "    try:\n"
                          "        ctypes.CDLL(name)\n"
                          "    except OSError:\n"
                          "        continue\n"
                          "    sys.exit('loaded ' + name)\n")
    expect(probe.returncode == 0, f"CUDA is not hidden: {probe.stderr}{probe.stdout}")

    result = hidden.run([args.opengpa, "list", "--api", "vk", "--names"])
    expect_ok(result, "opengpa list --api vk")
    expect("GPUTime" in result.stdout.split(), result.stdout[:2000])
    # The counter library (libGPUPerfAPICounters.so) for Vulkan, OpenGL and OpenCL, by device ids.
    for api in ("vk", "gl", "cl"):
        result = hidden.run([args.opengpa, "list", "--api", api, "--vendor-id", "0x1002", "--device-id", "0x744C",
                             "--names"])
        expect_ok(result, f"opengpa list --api {api} --vendor-id 0x1002 --device-id 0x744C")
        expect("GPUTime" in result.stdout.split(), result.stdout)
    result = hidden.python("import opengpa\n"
                           "counters = opengpa.list_counters(api='vulkan')\n"
                           "assert len(counters) > 10, counters\n"
                           "print(len(counters))\n")
    expect_ok(result, "opengpa.list_counters(api='vulkan')")

    if not hidden.namespace:
        # The loader path cannot hide a folder a library names itself: those that served above must name none
        # that holds CUDA (a RUNPATH to the toolkit would find libcupti however the loader is run).
        served = [args.opengpa] + [os.path.join(args.library_dir, f"libGPUPerfAPI{suffix}.so")
                                   for suffix in ("Counters", "VK", "GL", "CL")]
        for path in served:
            cuda = [folder for folder in search_folders(path) if os.path.isdir(folder) and
                    any(CUDA_LIBRARY.match(name) for name in os.listdir(folder))]
            expect(not cuda, f"{os.path.basename(path)} searches CUDA's folders: {cuda}")
        print("the CUDA parts' message is not checked: the toolkit could still be loaded by path")
        return
    # The CUDA parts load, and say what is missing.
    result = hidden.run([args.opengpa, "list", "--chip", "GH100", "--names"])
    expect(result.returncode == 1, f"exit {result.returncode} (1: a library that cannot work):\n{result.stderr}")
    expect("CUPTI" in result.stderr and "could not be loaded" in result.stderr and len(result.stderr) < 2000,
           result.stderr)
    result = hidden.python("import opengpa\n"
                           "try:\n"
                           "    opengpa.list_counters(chip='GH100')\n"
                           "except Exception as error:\n"
                           "    print(type(error).__name__, error)\n"
                           "else:\n"
                           "    raise SystemExit('an offline GH100 context opened without CUPTI')\n")
    expect_ok(result, "opengpa.list_counters(chip='GH100') (expected to raise)")
    expect("CUPTI" in result.stdout + result.stderr or "-28" in result.stdout, result.stdout + result.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("check", choices=sorted(CHECKS))
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--library-dir", required=True)
    parser.add_argument("--python-dir", required=True)
    parser.add_argument("--also", action="append", default=[], help="another built file to read (repeatable)")
    args = parser.parse_args()
    args.opengpa = os.path.abspath(args.opengpa)
    args.library_dir = os.path.abspath(args.library_dir)
    CHECKS[args.check](args)
    print(f"{args.check}: ok")


if __name__ == "__main__":
    main()
