"""Shared fixtures: where the repository is, and the fake backend's context."""

import ctypes
import json
import os
import pathlib
import re

import pytest

import opengpa
from fake_device import FakeDevice

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
# OpenGPA's one version (CMakeLists.txt's project(VERSION)), which the Python package must report too.
PROJECT_VERSION = re.search(r"^project\(OpenGPA VERSION ([0-9.]+)", (REPOSITORY / "CMakeLists.txt").read_text(),
                            re.MULTILINE).group(1)


def fill_as_the_library(text, buffer, size):
    """A fake entry point's answer as the library fills (buffer, size): *size in is the capacity, out the size needed;
    -3 (kOpenGpaProfileStatusErrorBufferTooSmall) when the buffer is too small."""
    data = text.encode()
    capacity = size._obj.value
    size._obj.value = len(data) + 1
    if buffer is None:
        return 0
    if capacity < len(data) + 1:
        return -3
    ctypes.memmove(buffer, data + b"\0", len(data) + 1)
    return 0


def catalog_counters(*file_names):
    """(name, group, formula) of every counter entry of catalogs/<file_name>, in file order."""
    entries = []
    for file_name in file_names:
        with open(REPOSITORY / "catalogs" / file_name) as catalog:
            entries += [(c["name"], c["group"], c["formula"]) for c in json.load(catalog)["counters"]]
    return entries


@pytest.fixture(autouse=True)
def _libraries_from_the_build():
    # ctest sets OPENGPA_LIBRARY_DIR to the build's lib/; a test run without it would test some other copy.
    assert os.environ.get("OPENGPA_LIBRARY_DIR"), "set OPENGPA_LIBRARY_DIR to the build tree's lib/ folder"


@pytest.fixture
def fake_device():
    return FakeDevice.make()


@pytest.fixture
def fake_context(fake_device):
    with opengpa.GpaContext("libGPUPerfAPITest.so", fake_device) as context:
        yield context


def fake_profile(counters, context):
    """A Profile on the fake backend, whose command lists are Vulkan-like (primary, non-null)."""
    return opengpa.Profile(counters, context=context, command_list=ctypes.c_void_p(0x1000), command_list_type=1)
