"""Writes tests/report/data/h100_torch_ops.profile.json: the training step recorded on the H100 in
tests/python/data/h100_torch_ops (two passes of application replay and torch.profiler's CPU events), joined by
libOpenGPAProfile.so, attributed to operators and modules (opengpa.op_attribution) and saved as a profile JSON
with "op" and "module" per sample (OpAttribution.save_profile). Real measurements, no GPU needed to rebuild it:

    OPENGPA_LIBRARY_DIR=build/lib PYTHONPATH=python python3 tests/report/make_torch_ops_profile.py OUT.json

tests/python/test_report_inputs.py checks that the committed file is what this writes."""

import json
import pathlib
import sys
import tempfile

from opengpa import kernels, op_attribution

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
RECORDED = REPOSITORY / "tests" / "python" / "data" / "h100_torch_ops"


def write(path):
    with tempfile.TemporaryDirectory() as work:
        document = kernels.join_streams([RECORDED / "pass0.jsonl", RECORDED / "pass1.jsonl"],
                                        pathlib.Path(work) / "joined.json")
    with open(RECORDED / "pass0.launches.json") as labels:
        results = kernels.results_from_profile(document, json.load(labels))
    table = op_attribution.attribute(results, op_attribution.load_events(RECORDED / "events.json"))
    table.save_profile(path)


if __name__ == "__main__":
    write(sys.argv[1])
