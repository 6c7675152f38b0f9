"""What `opengpa report` reads from Python: `KernelResults.save_profile` and `OpAttribution.save_profile` write
profile JSON (docs/schema/profile.schema.json) with, for PyTorch, each launch's operator and module; and
tests/report/data/h100_torch_ops.profile.json, the report tests' real profile, is what
tests/report/make_torch_ops_profile.py writes from the recorded H100 training step."""

import importlib.util
import json

import jsonschema

from conftest import REPOSITORY
from opengpa import kernels, op_attribution

SCHEMA = json.loads((REPOSITORY / "docs" / "schema" / "profile.schema.json").read_text())
RECORDED = REPOSITORY / "tests" / "python" / "data" / "h100_torch_ops"
COMMITTED = REPOSITORY / "tests" / "report" / "data" / "h100_torch_ops.profile.json"


def recorded_attribution(tmp_path):
    document = kernels.join_streams([RECORDED / "pass0.jsonl", RECORDED / "pass1.jsonl"], tmp_path / "joined.json")
    with open(RECORDED / "pass0.launches.json") as labels:
        results = kernels.results_from_profile(document, json.load(labels))
    return results, op_attribution.attribute(results, op_attribution.load_events(RECORDED / "events.json"))


def test_saved_kernel_rows_are_a_valid_profile_with_every_value(tmp_path):
    results, _ = recorded_attribution(tmp_path)
    results.save_profile(tmp_path / "rows.json")
    document = json.loads((tmp_path / "rows.json").read_text())
    jsonschema.validate(document, SCHEMA)
    assert [s["kernel"] for s in document["samples"]] == results.kernels
    for column, counter in enumerate(results.counters):
        assert [s["values"][counter.name] for s in document["samples"]] == list(results.values[:, column])
    assert "op" not in document["samples"][0]
    reread = kernels.load_profile(tmp_path / "rows.json")
    assert reread.kernels == results.kernels and (reread.values == results.values).all()


def test_an_attributed_profile_names_each_launchs_operator_and_module(tmp_path):
    _, table = recorded_attribution(tmp_path)
    table.save_profile(tmp_path / "ops.json")
    document = json.loads((tmp_path / "ops.json").read_text())
    jsonschema.validate(document, SCHEMA)
    assert [s["op"] for s in document["samples"]] == table.ops
    assert [s["module"] for s in document["samples"]] == table.modules


def test_the_report_tests_profile_is_what_its_script_writes_from_the_recording(tmp_path):
    spec = importlib.util.spec_from_file_location("make", REPOSITORY / "tests" / "report" / "make_torch_ops_profile.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    make.write(tmp_path / "made.json")
    assert json.loads((tmp_path / "made.json").read_text()) == json.loads(COMMITTED.read_text())
