"""opengpa.doctor(): the CLI's self-check from Python, on CI's software drivers (lavapipe, llvmpipe, PoCL)."""

import importlib
import os

import pytest

import opengpa

# The module itself: `opengpa.doctor` is the function the package exports under the module's name.
doctor_module = importlib.import_module("opengpa.doctor")


def test_doctor_returns_the_clis_report_with_every_present_api_passing_and_cuda_and_the_monitor_absent():
    report = opengpa.doctor(quick=True)
    assert report["schema"] == "opengpa-doctor/1" and report["quick"] is True
    statuses = {backend["api"]: backend["status"] for backend in report["backends"]}
    assert statuses == {"cuda": "absent", "vk": "pass", "gl": "pass", "cl": "pass", "monitor": "absent"}
    assert report["exit_code"] == 0
    vk = next(b for b in report["backends"] if b["api"] == "vk")
    # The library the doctor checked is the one Python loads (OPENGPA_LIBRARY_DIR, set by ctest).
    checked = os.path.realpath(os.path.dirname(vk["gpa_library"]["path"]))
    assert checked == os.path.realpath(os.environ["OPENGPA_LIBRARY_DIR"])
    csthreads = next(c for c in vk["checks"] if c["counter"] == "CSThreads")
    assert csthreads["measured"] == csthreads["truth"] == 8192


def test_doctor_restricted_to_one_api_reports_only_that_api():
    report = opengpa.doctor(apis=["cl"], quick=True)
    assert [b["api"] for b in report["backends"]] == ["cl"]


def test_a_missing_cli_is_named_with_the_places_looked(monkeypatch):
    monkeypatch.setenv("OPENGPA_CLI", "/nonexistent/opengpa")
    monkeypatch.setenv("OPENGPA_LIBRARY_DIR", "/nonexistent/lib")
    monkeypatch.setenv("PATH", "/nonexistent/bin")
    with pytest.raises(FileNotFoundError, match="OPENGPA_CLI"):
        doctor_module.find_cli()


def test_a_report_less_cli_run_raises_with_what_it_printed():
    with pytest.raises(RuntimeError, match="metal"):
        opengpa.doctor(apis=["metal"])
