"""`opengpa report` without a browser: what it writes into the page, and how it refuses bad input (docs/cli.md).

- the page holds the inputs' launches exactly (read back from its data element, compared with the profile JSON);
- a kernel named "</script><b>" cannot end the data's element (the page keeps the template's own </script> tags only);
- the ranks of a job (two files) come with opengpa compare's spread, and --diff with its changes;
- bad inputs: a file that is no profile (exit 1, the file and the reason named), --diff with three files (2), an
  existing output without -f (2, nothing written), a template without the data marker (1).

    python3 tests/report/report_command_check.py --opengpa build/bin/opengpa --work build/tests/report/command
"""

import argparse
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import synthesize_profile  # noqa: E402

TORCH_PROFILE = HERE / "data" / "h100_torch_ops.profile.json"
MARKER = '<script id="report-data" type="application/json">'


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def report(opengpa, *arguments):
    return subprocess.run([opengpa, "report", *map(str, arguments)], capture_output=True, text=True)


def page_data(path):
    page = path.read_text()
    start = page.index(MARKER) + len(MARKER)
    return json.loads(page[start:page.index("</script>", start)]), page


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--work", required=True, type=pathlib.Path)
    arguments = parser.parse_args()
    opengpa, work = arguments.opengpa, arguments.work
    work.mkdir(parents=True, exist_ok=True)

    html = work / "torch.html"
    result = report(opengpa, TORCH_PROFILE, "-o", html, "-f")
    if result.returncode != 0:
        fail(f"report of the torch profile: {result.stderr}")
    data, _ = page_data(html)
    document = json.loads(TORCH_PROFILE.read_text())
    table = data["inputs"][0]
    names = [c["name"] for c in document["counters"]]
    if [c["name"] for c in table["counters"]] != names:
        fail(f"counters {table['counters']}")
    width = len(table["columns"])
    for sample, launch in zip(document["samples"], table["launches"]):
        row = dict(zip(table["columns"], launch))
        expected = (sample["kernel"], sample["index"], sample["op"], sample["module"])
        if (row["name"], row["index"], row["op"], row["module"]) != expected:
            fail(f"launch {sample['index']}: {row}")
        if launch[width:] != [sample["values"][name] for name in names]:
            fail(f"launch {sample['index']}: values {launch[width:]}")
    if len(table["launches"]) != len(document["samples"]) or data["members"] is not None or data["diff"] is not None:
        fail("the torch profile: launches, members or diff")

    hostile = json.loads(TORCH_PROFILE.read_text())
    hostile["samples"][0]["kernel"] = "</script><b>bold</b><!--"
    (work / "hostile.json").write_text(json.dumps(hostile))
    result = report(opengpa, work / "hostile.json", "-o", work / "hostile.html", "-f")
    template = (pathlib.Path(opengpa).resolve().parent.parent / "share" / "opengpa" / "report.html").read_text()
    data, page = page_data(work / "hostile.html")
    if result.returncode != 0 or page.count("</script>") != template.count("</script>"):
        fail("a kernel name ends the data's <script> element")
    if data["inputs"][0]["launches"][0][1] != "</script><b>bold</b><!--":
        fail("the hostile kernel name does not read back whole")

    ranks = []
    for rank in (0, 1):
        profile = synthesize_profile.synthesize(40, 1, rank)
        for sample in profile["samples"]:
            sample["rank"], sample["pid"] = rank, 1000 + rank
        ranks.append(work / f"rank{rank}.json")
        ranks[-1].write_text(json.dumps(profile))
    result = report(opengpa, *ranks, "-o", work / "ranks.html", "-f")
    data, _ = page_data(work / "ranks.html")
    compare = json.loads(subprocess.run([opengpa, "compare", *map(str, ranks), "--json", "-"], capture_output=True,
                                        text=True, check=True).stdout)
    spread = [(g["group"], g["counters"][0]["median"], g["outlier"]) for g in compare["groups"]]
    if result.returncode != 0 or [(m["group"], m["median"], m["outlier"]) for m in data["members"]] != spread:
        fail(f"the ranks' spread differs from opengpa compare's: {data['members']}")

    result = report(opengpa, ranks[0], ranks[1], "--diff", "-o", work / "diff.html", "-f")
    data, _ = page_data(work / "diff.html")
    compare = json.loads(subprocess.run([opengpa, "compare", "--diff", *map(str, ranks), "--json", "-"],
                                        capture_output=True, text=True, check=True).stdout)
    if result.returncode != 0 or [(c["group"], c["counter"], c["moved"]) for c in data["diff"]["changes"]] != \
            [(c["group"], c["counter"], c["moved"]) for c in compare["changes"]]:
        fail("--diff's changes differ from opengpa compare --diff's")

    (work / "not_a_profile.json").write_text('{"schema": "something/1"}')
    result = report(opengpa, work / "not_a_profile.json", "-o", work / "bad.html", "-f")
    if result.returncode != 1 or "not_a_profile.json: not an opengpa profile" not in result.stderr:
        fail(f"a file that is no profile: exit {result.returncode}, {result.stderr!r}")
    if (work / "bad.html").exists():
        fail("a failed report left a page behind")
    result = report(opengpa, TORCH_PROFILE, TORCH_PROFILE, TORCH_PROFILE, "--diff", "-o", work / "three.html")
    if result.returncode != 2 or "--diff compares two profiles" not in result.stderr:
        fail(f"--diff with three files: exit {result.returncode}, {result.stderr!r}")
    before = html.stat().st_mtime_ns
    result = report(opengpa, TORCH_PROFILE, "-o", html)
    if result.returncode != 2 or html.stat().st_mtime_ns != before:
        fail(f"an existing page without -f: exit {result.returncode}, {result.stderr!r}")
    (work / "no_marker.html").write_text("<html></html>")
    result = report(opengpa, TORCH_PROFILE, "-o", work / "x.html", "-f", "--template", work / "no_marker.html")
    if result.returncode != 1 or "has no /*OPENGPA_REPORT_DATA*/ marker" not in result.stderr:
        fail(f"a template without the marker: exit {result.returncode}, {result.stderr!r}")
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
