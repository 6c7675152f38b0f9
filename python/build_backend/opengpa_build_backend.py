"""The PEP 517 build backend of the `opengpa` wheel (pyproject.toml's [build-system] names it, in-tree).

Why not setuptools: `pip install --no-build-isolation .` (offline) must work with any CPython 3.9+ that has pip,
and the backend is then whatever the interpreter already holds. On this machine pyenv's 3.12 and 3.13 hold no
setuptools at all, 3.9's is 58.1 (older than 61, the first to read [project] from pyproject.toml), and 3.10's
and 3.11's 65.5 need the separate `wheel` package for `bdist_wheel`, which none of them has ("invalid command
'bdist_wheel'"). This module needs only the standard library, plus a TOML reader before Python 3.11: `tomli` if
installed, else the copy vendored inside pip (which is running this build).

What it builds: the package python/opengpa (its .py files and py.typed) with OpenGPA's C libraries in
opengpa/_libs/. The package loads them with ctypes, so there is no extension module and one wheel serves every
Python 3 (tag py3-none-<platform>). The libraries come from, in order:

- $OPENGPA_PREBUILT_LIBRARY_DIR: a lib/ folder already built (e.g. build/lib); nothing is compiled;
- else a CMake build of the repository into $OPENGPA_WHEEL_BUILD_DIR (default build-python/), Release, without
  tests, samples or benchmarks, of the libraries this machine can build.

Metadata (name, dependencies, the `opengpa-python` console script) is pyproject.toml's [project] table; the
version is CMakeLists.txt's project(VERSION), OpenGPA's one place for it, written into the wheel's _version.py.
"""

import base64
import csv
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE_DIR = os.path.join(ROOT, "python", "opengpa")
PACKAGE_DATA = ("py.typed",)
# libOpenGPAProfile.so: the per-kernel profiler `opengpa profile` injects, which per_kernel=True drives from
# inside Python (python/opengpa/kernels.py, over include/opengpa/opengpa_profile.h).
LIBRARIES = ("libGPUPerfAPICUDA.so", "libGPUPerfAPIVK.so", "libGPUPerfAPIGL.so", "libGPUPerfAPICL.so",
             "libGPUPerfAPICounters.so", "libOpenGPAMonitor.so", "libOpenGPAProfile.so")


def _log(message):
    print(f"opengpa build: {message}", file=sys.stderr, flush=True)


# ---- metadata (pyproject.toml's [project]) ----------------------------------------------------------------

def _toml_reader():
    try:
        import tomllib  # Python 3.11+
        return tomllib
    except ImportError:
        pass
    try:
        import tomli
        return tomli
    except ImportError:
        pass
    try:
        from pip._vendor import tomli  # pip 21.2+ carries one; pip is what runs this backend
        return tomli
    except ImportError:
        raise RuntimeError("reading pyproject.toml before Python 3.11 needs tomli (pip install tomli) or a pip "
                           "that vendors it (21.2 or later)") from None


def _cmake_version():
    """CMakeLists.txt's project(OpenGPA VERSION x.y.z): OpenGPA's one version, the package's too."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as cmake_lists:
        found = re.search(r"^project\(OpenGPA VERSION ([0-9]+\.[0-9]+\.[0-9]+)", cmake_lists.read(), re.MULTILINE)
    if not found:
        raise RuntimeError("CMakeLists.txt has no `project(OpenGPA VERSION x.y.z)` line to take the version from")
    return found.group(1)


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as pyproject:
        project = _toml_reader().load(pyproject)["project"]
    if "version" in project.get("dynamic", []):
        project["version"] = _cmake_version()
    return project


def _version_module(project, staging):
    """opengpa/_version.py for the wheel: the version written out (the wheel carries no CMakeLists.txt)."""
    path = os.path.join(staging, "_version.py")
    with open(path, "w", encoding="utf-8") as module:
        module.write(f'"""OpenGPA\'s version, written by the wheel\'s build from CMakeLists.txt."""\n\n'
                     f'__version__ = "{project["version"]}"\n')
    return path


def _distribution_name(project):
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project):
    """Core metadata 2.1 (METADATA / PKG-INFO) from [project]."""
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    license_entry = project.get("license", {})
    if isinstance(license_entry, dict) and license_entry.get("text"):
        lines.append(f"License: {license_entry['text']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {requirement}; extra == "{extra}"' for requirement in requirements]
    readme = project.get("readme")
    if not isinstance(readme, str):
        return "\n".join(lines) + "\n"
    lines.append("Description-Content-Type: " + ("text/markdown" if readme.endswith(".md") else "text/plain"))
    with open(os.path.join(ROOT, readme), encoding="utf-8") as description:
        return "\n".join(lines) + "\n\n" + description.read()


def _entry_points(project):
    scripts = project.get("scripts", {})
    if not scripts:
        return ""
    return "[console_scripts]\n" + "".join(f"{name} = {target}\n" for name, target in scripts.items())


def _tag():
    """py3-none-<platform>: no extension module (ctypes), native libraries for this platform."""
    return "py3-none-" + re.sub(r"[-.]", "_", sysconfig.get_platform())


def _wheel_file():
    return f"Wheel-Version: 1.0\nGenerator: opengpa_build_backend\nRoot-Is-Purelib: false\nTag: {_tag()}\n"


def _dist_info_name(project):
    return f"{_distribution_name(project)}-{project['version']}.dist-info"


def _dist_info_files(project):
    """{name inside .dist-info: bytes}, RECORD excepted."""
    files = {"METADATA": _metadata(project).encode(), "WHEEL": _wheel_file().encode()}
    entry_points = _entry_points(project)
    if entry_points:
        files["entry_points.txt"] = entry_points.encode()
    license_path = os.path.join(ROOT, "LICENSE")
    if os.path.exists(license_path):
        with open(license_path, "rb") as license_file:
            files["LICENSE"] = license_file.read()
    return files


# ---- the C libraries ----------------------------------------------------------------------------------

def _build_libraries():
    build = os.path.abspath(os.environ.get("OPENGPA_WHEEL_BUILD_DIR", os.path.join(ROOT, "build-python")))
    environment = dict(os.environ, CCACHE_BASEDIR=ROOT, CCACHE_NOHASHDIR="1")
    environment["PATH"] = environment.get("PATH", "") + ":/usr/local/cuda/bin"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.check_call(["cmake", "-S", ROOT, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
                           "-DOPENGPA_BUILD_TESTS=OFF", "-DOPENGPA_BUILD_SAMPLES=OFF",
                           "-DOPENGPA_BUILD_BENCHMARKS=OFF"], env=environment, stdout=sys.stderr)
    # Only the libraries the wheel carries, those this machine can build: a library whose toolkit is missing
    # (CUDA, say) is not a target.
    targets_text = subprocess.run(["cmake", "--build", build, "--target", "help"], env=environment,
                                  capture_output=True, text=True).stdout
    targets = [name[3:-3] for name in LIBRARIES if re.search(rf"\b{name[3:-3]}\b", targets_text)]
    subprocess.check_call(["cmake", "--build", build, "-j", str(os.cpu_count() or 2), "--target", *targets],
                          env=environment, stdout=sys.stderr)
    return os.path.join(build, "lib")


def _library_files(staging):
    """{path inside the wheel: file on disk} of the libraries, copied into `staging` and stripped of debug
    information (a RelWithDebInfo build's would make the wheel 5x larger)."""
    source = os.environ.get("OPENGPA_PREBUILT_LIBRARY_DIR") or _build_libraries()
    strip = shutil.which("strip")
    files = {}
    for name in LIBRARIES:
        path = os.path.join(source, name)
        if not os.path.exists(path):
            continue
        copy = os.path.join(staging, name)
        shutil.copy2(path, copy)
        if strip:
            subprocess.check_call([strip, "--strip-debug", copy])
        files[f"opengpa/_libs/{name}"] = copy
    if "opengpa/_libs/libGPUPerfAPICounters.so" not in files:
        found = sorted(name for name in os.listdir(source) if name.endswith(".so")) if os.path.isdir(source) else []
        raise RuntimeError(f"no OpenGPA libraries in {source} (found {found or 'nothing'})")
    _log(f"packaged {', '.join(os.path.basename(p) for p in files.values())} from {source}")
    return files


def _package_files():
    files = {}
    for name in sorted(os.listdir(PACKAGE_DIR)):
        if name.endswith(".py") or name in PACKAGE_DATA:
            files[f"opengpa/{name}"] = os.path.join(PACKAGE_DIR, name)
    return files


# ---- PEP 517 hooks ------------------------------------------------------------------------------------

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(data))]


def get_requires_for_build_wheel(config_settings=None):
    """Nothing to install: the standard library (and CMake, for a build without prebuilt libraries)."""
    return []


def get_requires_for_build_sdist(config_settings=None):
    """Nothing to install."""
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The .dist-info folder the wheel will hold (pip reads the metadata before building)."""
    project = _project()
    folder = os.path.join(metadata_directory, _dist_info_name(project))
    os.makedirs(folder, exist_ok=True)
    for name, data in _dist_info_files(project).items():
        with open(os.path.join(folder, name), "wb") as output:
            output.write(data)
    return os.path.basename(folder)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """opengpa-<version>-py3-none-<platform>.whl in `wheel_directory`: the package, its libraries, .dist-info."""
    project = _project()
    dist_info = _dist_info_name(project)
    wheel_name = f"{_distribution_name(project)}-{project['version']}-{_tag()}.whl"
    os.makedirs(wheel_directory, exist_ok=True)
    path = os.path.join(wheel_directory, wheel_name)
    records = []
    with tempfile.TemporaryDirectory(prefix="opengpa-wheel-") as staging, \
            zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        files = {**_package_files(), **_library_files(staging)}
        files["opengpa/_version.py"] = _version_module(project, staging)
        for name, source in files.items():
            with open(source, "rb") as data_file:
                data = data_file.read()
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
            records.append(_record_line(name, data))
        for name, data in _dist_info_files(project).items():
            wheel.writestr(f"{dist_info}/{name}", data)
            records.append(_record_line(f"{dist_info}/{name}", data))
        record = io.StringIO()
        csv.writer(record, lineterminator="\n").writerows(records + [[f"{dist_info}/RECORD", "", ""]])
        wheel.writestr(f"{dist_info}/RECORD", record.getvalue())
    _log(f"wrote {path}")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """opengpa-<version>.tar.gz: the repository's tracked files (the wheel's build runs CMake over all of them)
    and PKG-INFO. Needs a git checkout, to know which files are the source."""
    project = _project()
    base = f"{_distribution_name(project)}-{project['version']}"
    try:
        listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise RuntimeError(f"an sdist lists the tracked files with git, which failed in {ROOT}: {error}") from None
    os.makedirs(sdist_directory, exist_ok=True)
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for relative in sorted(filter(None, listed.decode().split("\0"))):
            if os.path.isfile(os.path.join(ROOT, relative)):
                sdist.add(os.path.join(ROOT, relative), arcname=f"{base}/{relative}", recursive=False)
        data = _metadata(project).encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
    return name
