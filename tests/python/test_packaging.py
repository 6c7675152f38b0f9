"""`pip wheel .` of the repository (pyproject.toml and its in-tree backend, no network) makes a wheel that holds
the package, py.typed and its C libraries, and works on its own: no OPENGPA_LIBRARY_DIR needed. The build assumes
neither setuptools nor wheel (`bdist_wheel`), so any CPython 3.9+ with pip builds it offline; installed, it gives
`opengpa-python` and `python -m opengpa`, which run the CLI. The libraries are this build's
(OPENGPA_PREBUILT_LIBRARY_DIR), so no second CMake build runs here."""

import glob
import os
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import PROJECT_VERSION, REPOSITORY

CLI = pathlib.Path(os.environ["OPENGPA_LIBRARY_DIR"]).parent / "bin" / "opengpa"


def build_wheel(tmp_path, python=sys.executable, **environment):
    environment = dict(os.environ, OPENGPA_PREBUILT_LIBRARY_DIR=os.environ["OPENGPA_LIBRARY_DIR"],
                       OPENGPA_WHEEL_BUILD_DIR=str(tmp_path / "cmake"), PIP_NO_INDEX="1", **environment)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    built = subprocess.run([python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                            "-w", str(tmp_path / "wheels"), str(REPOSITORY)],
                           capture_output=True, text=True, env=environment, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "wheels").iterdir()
    return wheel


def test_the_wheel_holds_the_package_and_libraries_and_lists_counters_by_itself(tmp_path):
    wheel = build_wheel(tmp_path)
    # No extension module (ctypes): one wheel for every Python 3, tagged for the platform of its libraries.
    assert wheel.name.startswith(f"opengpa-{PROJECT_VERSION}-py3-none-") and wheel.name.endswith("linux_x86_64.whl"), \
        wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert {"opengpa/__init__.py", "opengpa/__main__.py", "opengpa/py.typed", "opengpa/profiling.py",
                "opengpa/_libs/libGPUPerfAPICounters.so", "opengpa/_libs/libGPUPerfAPICUDA.so",
                "opengpa/_libs/libOpenGPAMonitor.so", "opengpa/_libs/libOpenGPAProfile.so",
                "opengpa/kernels.py"} <= names, names
        entry_points = archive.read(f"opengpa-{PROJECT_VERSION}.dist-info/entry_points.txt").decode()
        assert "opengpa-python = opengpa.__main__:main" in entry_points
        metadata = archive.read(f"opengpa-{PROJECT_VERSION}.dist-info/METADATA").decode()
        assert "Requires-Dist: numpy" in metadata and "Requires-Python: >=3.9" in metadata
        record = archive.read(f"opengpa-{PROJECT_VERSION}.dist-info/RECORD").decode()
        assert all(name in record for name in names)
        # The wheel carries no CMakeLists.txt: its _version.py names the version written out.
        assert f'__version__ = "{PROJECT_VERSION}"' in archive.read("opengpa/_version.py").decode()
        archive.extractall(tmp_path / "site")
    code = ("import opengpa, opengpa._library as l; c = opengpa.list_counters(chip='GH100'); "
            "print(len(c), l.find_library('libGPUPerfAPICUDA.so'))")
    clean = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path / "site")}
    listed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean, timeout=120)
    assert listed.returncode == 0, listed.stderr
    count, path = listed.stdout.split()
    assert int(count) > 50
    assert path == str(tmp_path / "site" / "opengpa" / "_libs" / "libGPUPerfAPICUDA.so")


def test_the_wheel_builds_with_neither_setuptools_nor_wheel_importable(tmp_path):
    # Modules that shadow setuptools and wheel and refuse to import: a backend needing either fails here.
    for name in ("setuptools", "wheel"):
        (tmp_path / "hidden" / name).mkdir(parents=True)
        (tmp_path / "hidden" / name / "__init__.py").write_text(f"raise ImportError('{name} is hidden by the test')\n")
    wheel = build_wheel(tmp_path, PYTHONPATH=str(tmp_path / "hidden"))
    assert wheel.name.startswith(f"opengpa-{PROJECT_VERSION}-py3-none-")


def test_installed_in_a_venv_it_gives_opengpa_python_and_python_dash_m_opengpa(tmp_path):
    wheel = build_wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True,
                   timeout=120)
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                                "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True, timeout=300)
    if "no such option: --python" in installed.stderr:  # pip before 22.3: the venv's own pip
        pytest.skip("this pip cannot install into another environment (pip 22.3+ has --python)")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    environment = {"PATH": "/usr/bin:/bin", "OPENGPA_CLI": str(CLI)}
    expected = subprocess.run([str(CLI), "--version"], capture_output=True, text=True).stdout
    script = subprocess.run([str(venv / "bin" / "opengpa-python"), "--version"], capture_output=True, text=True,
                            env=environment, timeout=120)
    assert script.returncode == 0 and script.stdout == expected, script.stderr
    module = subprocess.run([str(venv / "bin" / "python"), "-m", "opengpa", "list", "--api", "cl", "--format", "csv"],
                            capture_output=True, text=True, env=environment, cwd=tmp_path, timeout=120)
    assert module.returncode == 0 and module.stdout.startswith("index,name"), module.stderr


def other_interpreters():
    """CPython 3.9+ interpreters with pip other than this one (pyenv's, python3.X on PATH), one per version."""
    found = {}
    candidates = glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))
    candidates += [shutil.which(f"python3.{minor}") for minor in range(9, 20)]
    for path in filter(None, candidates):
        version = subprocess.run([path, "-c", "import sys, pip; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True).stdout.strip()
        if re.fullmatch(r"3\.(9|[1-9]\d)", version) and os.path.realpath(path) != os.path.realpath(sys.executable):
            found.setdefault(version, path)
    return sorted(found.items())


def test_every_other_cpython_3_9_or_later_with_pip_builds_the_wheel_offline(tmp_path):
    interpreters = other_interpreters()
    if not interpreters:
        pytest.skip("no other CPython 3.9+ with pip on this machine")
    for version, python in interpreters:
        wheel = build_wheel(tmp_path / version, python=python)
        assert wheel.name.startswith(f"opengpa-{PROJECT_VERSION}-py3-none-"), (version, wheel.name)
