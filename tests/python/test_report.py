"""opengpa.report(): `opengpa report` from Python, on a real profile file and on kernel rows in memory."""

import json

import pytest

import opengpa
from conftest import REPOSITORY
from opengpa import kernels

PROFILE = REPOSITORY / "tests" / "report" / "data" / "h100_torch_ops.profile.json"
MARKER = '<script id="report-data" type="application/json">'


def page_data(path):
    page = path.read_text()
    start = page.index(MARKER) + len(MARKER)
    return json.loads(page[start:page.index("</script>", start)])


def test_a_report_of_a_file_and_of_rows_in_memory_hold_the_same_launches(tmp_path):
    from_file = opengpa.report([PROFILE], tmp_path / "file.html", peak_flops=6.7e13, peak_bandwidth=3.35e12)
    opengpa.report([kernels.load_profile(PROFILE)], tmp_path / "rows.html", title="rows")
    file_data, rows_data = page_data(tmp_path / "file.html"), page_data(tmp_path / "rows.html")
    assert from_file == str(tmp_path / "file.html") and file_data["peak_flops"] == 6.7e13
    assert rows_data["title"] == "rows"
    width = len(file_data["inputs"][0]["columns"])
    # The rows lose what KernelResults does not keep (op, module): names, indices and values stay.
    assert [(row[1], row[2], row[width:]) for row in rows_data["inputs"][0]["launches"]] == \
        [(row[1], row[2], row[width:]) for row in file_data["inputs"][0]["launches"]]


def test_a_refused_report_raises_with_the_clis_message(tmp_path):
    with pytest.raises(RuntimeError, match="--diff compares two profiles"):
        opengpa.report([PROFILE], tmp_path / "one.html", diff=True)
