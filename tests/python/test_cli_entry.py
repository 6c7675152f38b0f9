"""`python -m opengpa` runs the `opengpa` CLI (found as opengpa.doctor() finds it) with the same arguments, output
and exit code; without a CLI it says where it looked and exits 127; a script named `opengpa` that leads back to
the module is refused instead of starting itself forever."""

import os
import pathlib
import subprocess
import sys

import opengpa

CLI = pathlib.Path(os.environ["OPENGPA_LIBRARY_DIR"]).parent / "bin" / "opengpa"


def run(arguments, **environment):
    env = dict(os.environ, **environment)
    env["PYTHONPATH"] = os.pathsep.join([str(pathlib.Path(opengpa.__file__).parents[1]), env.get("PYTHONPATH", "")])
    return subprocess.run(arguments, capture_output=True, text=True, env=env, timeout=120)


def test_python_dash_m_opengpa_gives_the_clis_version_and_exit_code():
    direct = run([str(CLI), "--version"])
    through_python = run([sys.executable, "-m", "opengpa", "--version"])
    assert through_python.returncode == direct.returncode == 0
    assert through_python.stdout == direct.stdout and through_python.stdout.startswith("opengpa ")


def test_python_dash_m_opengpa_lists_the_opencl_catalog_as_the_cli_does():
    direct = run([str(CLI), "list", "--api", "cl", "--format", "csv"])
    through_python = run([sys.executable, "-m", "opengpa", "list", "--api", "cl", "--format", "csv"])
    assert through_python.returncode == direct.returncode
    assert through_python.stdout == direct.stdout


def test_a_usage_error_exits_2_through_python_as_on_the_command_line():
    through_python = run([sys.executable, "-m", "opengpa", "list", "--no-such-option"])
    assert through_python.returncode == 2
    assert "--no-such-option" in through_python.stderr


def test_without_a_cli_it_names_where_it_looked_and_exits_127(tmp_path):
    missing = run([sys.executable, "-m", "opengpa", "--version"], OPENGPA_CLI="", OPENGPA_LIBRARY_DIR=str(tmp_path),
                  PATH=str(tmp_path))
    assert missing.returncode == 127
    assert "the opengpa executable was not found" in missing.stderr and "OPENGPA_CLI" in missing.stderr


def test_a_script_that_runs_this_module_again_is_refused(tmp_path):
    wrapper = tmp_path / "opengpa"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} -m opengpa \"$@\"\n")
    wrapper.chmod(0o755)
    looped = run([sys.executable, "-m", "opengpa", "--version"], OPENGPA_CLI=str(wrapper))
    assert looped.returncode == 1
    assert "runs this Python entry point again" in looped.stderr
