"""`pip wheel .` of the repository (setup.py + pyproject.toml, Debian's setuptools, no network) makes a
wheel that holds the package and its C libraries, and works on its own: no OPENGPA_LIBRARY_DIR needed.
The libraries are this build's (OPENGPA_PREBUILT_LIBRARY_DIR), so no second CMake build runs here."""

import os
import subprocess
import sys
import zipfile

from conftest import REPOSITORY


def test_the_wheel_holds_the_package_and_libraries_and_lists_counters_by_itself(tmp_path):
    environment = dict(os.environ, OPENGPA_PREBUILT_LIBRARY_DIR=os.environ["OPENGPA_LIBRARY_DIR"],
                       OPENGPA_WHEEL_BUILD_DIR=str(tmp_path / "cmake"), PIP_NO_INDEX="1")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                            "-w", str(tmp_path / "wheels"), str(REPOSITORY)],
                           capture_output=True, text=True, env=environment, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "wheels").iterdir()
    assert wheel.name.startswith("opengpa-3.17.0-") and wheel.name.endswith("linux_x86_64.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert {"opengpa/__init__.py", "opengpa/profiling.py", "opengpa/_libs/libGPUPerfAPICounters.so",
                "opengpa/_libs/libGPUPerfAPICUDA.so", "opengpa/_libs/libOpenGPAMonitor.so",
                "opengpa/_libs/libOpenGPAProfile.so", "opengpa/kernels.py"} <= names, names
        archive.extractall(tmp_path / "site")
    code = ("import opengpa, opengpa._library as l; c = opengpa.list_counters(chip='GH100'); "
            "print(len(c), l.find_library('libGPUPerfAPICUDA.so'))")
    clean = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path / "site")}
    listed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean, timeout=120)
    assert listed.returncode == 0, listed.stderr
    count, path = listed.stdout.split()
    assert int(count) > 50
    assert path == str(tmp_path / "site" / "opengpa" / "_libs" / "libGPUPerfAPICUDA.so")
