"""Builds OpenGPA's C libraries into the `opengpa` wheel (metadata: pyproject.toml).

The package loads the libraries with ctypes (python/opengpa/_library.py), so the wheel holds no Python
extension: only the same libGPUPerfAPI<X>.so, libGPUPerfAPICounters.so, libOpenGPAMonitor.so and
libOpenGPAProfile.so that `cmake --install` installs, in opengpa/_libs/. They come from, in order:

- $OPENGPA_PREBUILT_LIBRARY_DIR: a lib/ folder already built (e.g. build/lib): nothing is compiled;
- else a CMake build of the repository into $OPENGPA_WHEEL_BUILD_DIR (default build-python/ beside this
  file), Release, without tests, samples or benchmarks, with whichever backends the machine can build.
"""

import glob
import os
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
# libOpenGPAProfile.so: the per-kernel profiler `opengpa profile` injects, which per_kernel=True drives from
# inside Python (python/opengpa/kernels.py, over include/opengpa/opengpa_profile.h).
LIBRARIES = ("libGPUPerfAPICUDA.so", "libGPUPerfAPIVK.so", "libGPUPerfAPIGL.so", "libGPUPerfAPICL.so",
             "libGPUPerfAPICounters.so", "libOpenGPAMonitor.so", "libOpenGPAProfile.so")


# Everything the build writes goes under one ignored folder (the tests point it at a temporary one).
BUILD = os.path.abspath(os.environ.get("OPENGPA_WHEEL_BUILD_DIR", os.path.join(ROOT, "build-python")))


def _build_libraries():
    build = BUILD
    environment = dict(os.environ, CCACHE_BASEDIR=ROOT, CCACHE_NOHASHDIR="1")
    environment["PATH"] = environment.get("PATH", "") + ":/usr/local/cuda/bin"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.check_call(["cmake", "-S", ROOT, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
                           "-DOPENGPA_BUILD_TESTS=OFF", "-DOPENGPA_BUILD_SAMPLES=OFF",
                           "-DOPENGPA_BUILD_BENCHMARKS=OFF"], env=environment)
    # Only the libraries the wheel carries (the CLI and OpenCL's interception are not needed), those this
    # machine can build: a library whose toolkit is missing (CUDA, say) is not a target.
    targets_text = subprocess.run(["cmake", "--build", build, "--target", "help"], env=environment,
                                  capture_output=True, text=True).stdout
    targets = [name[3:-3] for name in LIBRARIES if re.search(rf"\b{name[3:-3]}\b", targets_text)]
    subprocess.check_call(["cmake", "--build", build, "-j", str(os.cpu_count() or 2), "--target", *targets],
                          env=environment)
    return os.path.join(build, "lib")


class BuildPyWithLibraries(build_py):
    def run(self):
        super().run()
        source = os.environ.get("OPENGPA_PREBUILT_LIBRARY_DIR") or _build_libraries()
        target = os.path.join(self.build_lib, "opengpa", "_libs")
        os.makedirs(target, exist_ok=True)
        copied = []
        strip = shutil.which("strip")
        for name in LIBRARIES:
            path = os.path.join(source, name)
            if os.path.exists(path):
                shutil.copy2(path, target)
                if strip:  # debug information (a RelWithDebInfo build's) would make the wheel 5x larger
                    subprocess.check_call([strip, "--strip-debug", os.path.join(target, name)])
                copied.append(name)
        if "libGPUPerfAPICounters.so" not in copied:
            raise RuntimeError(f"no OpenGPA libraries in {source} (found {glob.glob(source + '/*.so')})")
        print(f"opengpa: packaged {', '.join(copied)} from {source}")


class BinaryDistribution(Distribution):
    """The wheel holds native libraries: tag it for this platform, not as pure Python."""

    def has_ext_modules(self):
        return True


os.makedirs(BUILD, exist_ok=True)
setup(cmdclass={"build_py": BuildPyWithLibraries}, distclass=BinaryDistribution,
      options={"build": {"build_base": os.path.join(BUILD, "setuptools")}, "egg_info": {"egg_base": BUILD}})
