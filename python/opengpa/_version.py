"""The package's version, which is OpenGPA's: CMakeLists.txt's `project(OpenGPA VERSION ...)` is its one place.

The wheel (python/build_backend) and the Debian package (cmake/OpenGPAInstall.cmake) replace this file with one
that names the version, because neither carries CMakeLists.txt; from a checkout it is read from there, so a
version bump is one edit.
"""

import os
import re

_CMAKE_LISTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "CMakeLists.txt")
_PROJECT_VERSION = re.compile(r"^project\(OpenGPA VERSION ([0-9]+\.[0-9]+\.[0-9]+)", re.MULTILINE)


def _checkout_version():
    try:
        with open(_CMAKE_LISTS, encoding="utf-8") as cmake_lists:
            found = _PROJECT_VERSION.search(cmake_lists.read())
    except OSError:
        found = None
    # Neither packaged nor in a checkout (the file copied alone): say so rather than guess a number.
    return found.group(1) if found else "0+unknown"


__version__ = _checkout_version()
