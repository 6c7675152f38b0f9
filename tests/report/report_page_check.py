"""`opengpa report`'s page in headless Chromium, driven through chromedriver's WebDriver protocol with the standard
library only (urllib), as a user would use it: tabs clicked, headers clicked to sort, a filter typed.

Every figure the page shows is checked against the profile JSON read here (rows, columns, order, the roofline's
points and their left-to-right order by FLOP per byte, the ranks' columns, the diff's moved counters); the page must
log no error to the console, raise none, and fetch nothing. A screenshot of each view is kept in --work (the build
tree; ctest's artifacts). --benchmark: the 5,000-launch synthetic profile must be drawn within 2 s of navigation.

Exit codes: 0 passed, 1 failed, 77 skipped (no chromium or chromedriver: ctest's SKIP_RETURN_CODE).

    python3 tests/report/report_page_check.py --opengpa build/bin/opengpa --work build/tests/report/work
"""

import argparse
import base64
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import synthesize_profile  # noqa: E402

TORCH_PROFILE = HERE / "data" / "h100_torch_ops.profile.json"
SKIP = 77
RENDER_LIMIT_MS = 2000.0
FLOP_TERMS = (("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 2),
              ("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 1),
              ("sm__sass_thread_inst_executed_op_fmul_pred_on.sum", 1))
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Browser:
    """One chromedriver and one headless Chromium session (W3C WebDriver over HTTP)."""

    def __init__(self, chromium, chromedriver, work):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = open(work / "chromedriver.log", "w")
        self.driver = subprocess.Popen([chromedriver, f"--port={self.port}"], stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 30
        while True:
            try:
                self._call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.time() > deadline:
                    raise Failure("chromedriver did not answer within 30 s (see chromedriver.log)")
                time.sleep(0.2)
        options = {"binary": chromium,
                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=1300,900", "--hide-scrollbars", "--allow-file-access-from-files"]}
        session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}}})
        self.session = f"/session/{session['sessionId']}"

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            raise Failure(f"WebDriver {method} {path}: {error.read().decode(errors='replace')[:500]}")

    def open(self, url):
        self._call("POST", self.session + "/url", {"url": url})

    def run(self, script, *args):
        return self._call("POST", self.session + "/execute/sync", {"script": script, "args": list(args)})

    def element(self, css):
        return self._call("POST", self.session + "/element", {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css):
        self._call("POST", self.session + f"/element/{self.element(css)}/click", {})

    def type(self, css, text):
        self._call("POST", self.session + f"/element/{self.element(css)}/value", {"text": text})

    def screenshot(self, path):
        path.write_bytes(base64.b64decode(self._call("GET", self.session + "/screenshot")))

    def console(self):
        """The browser's console entries since the last call (chromedriver's log endpoint)."""
        return self._call("POST", self.session + "/se/log", {"type": "browser"})

    def close(self):
        try:
            self._call("DELETE", self.session)
        finally:
            self.driver.terminate()
            self.driver.wait(timeout=30)
            self.log.close()


# ---- what the page must show, computed from the profile JSON ----
def launches_of(paths):
    rows = []
    for path in paths:
        with open(path) as profile_file:
            document = json.load(profile_file)
        for sample in document["samples"]:
            rows.append((document, sample))
    return rows


def time_of(sample):
    return sample["values"].get("GPUTime")


def kernel_totals(paths):
    totals = {}
    for document, sample in launches_of(paths):
        entry = totals.setdefault(sample["kernel"], {"launches": 0, "time": 0.0, "values": {}})
        entry["launches"] += 1
        entry["time"] += time_of(sample) or 0
        for name, value in sample["values"].items():
            if value is not None:
                entry["values"][name] = entry["values"].get(name, 0) + value
    return totals


def rendered_ms(browser):
    return browser.run("return window.reportRenderedMs === undefined ? null : window.reportRenderedMs;")


def open_report(browser, html, view):
    browser.open(html.resolve().as_uri() + "#" + view)
    deadline = time.time() + 30
    while browser.run("return document.body.getAttribute('data-rendered');") != "true":
        check(time.time() < deadline, f"{html.name}: the page was not drawn within 30 s")
        time.sleep(0.1)


def show(browser, view):
    browser.click(f"#tab-{view}")
    deadline = time.time() + 10
    while not browser.run(f"return document.getElementById('view-{view}').classList.contains('active');"):
        check(time.time() < deadline, f"clicking the {view} tab did not show its view")
        time.sleep(0.05)


def table_cells(browser, table_id):
    return browser.run(f"""
        const table = document.querySelector('#{table_id} table');
        return {{head: [...table.querySelectorAll('thead th')].map((th) => th.textContent),
                rows: [...table.querySelectorAll('tbody tr')]
                    .map((tr) => [...tr.children].map((td) => td.title || td.textContent)),
                count: document.querySelector('#{table_id} .count').textContent}};""")


def number(cell):
    cell = cell.replace(",", "")
    return None if cell in ("\u2013", "") else float(cell)


def assert_clean(browser, label):
    errors = browser.run("return window.reportErrors;")
    check(errors == [], f"{label}: the page raised {errors}")
    severe = [entry for entry in browser.console() if entry.get("level") in ("SEVERE", "ERROR", "WARNING")]
    check(severe == [], f"{label}: console messages {severe}")
    fetched = browser.run("return performance.getEntriesByType('resource').map((e) => e.name);")
    check(fetched == [], f"{label}: the page fetched {fetched}")


def check_torch_report(browser, opengpa, work, screenshots):
    html = work / "torch.html"
    run([opengpa, "report", str(TORCH_PROFILE), "-o", str(html), "-f", "--peak-flops", "6.7e13",
         "--peak-bandwidth", "3.35e12"])
    totals = kernel_totals([TORCH_PROFILE])
    heaviest = max(totals, key=lambda name: totals[name]["time"])
    with open(TORCH_PROFILE) as profile_file:
        document = json.load(profile_file)
    counters = [c["name"] for c in document["counters"]]

    open_report(browser, html, "summary")
    top = table_cells_plain(browser, ".top-kernels")
    check(len(top) == min(10, len(totals)), f"summary: {len(top)} top kernels, expected {min(10, len(totals))}")
    check(top[0][0] == heaviest, f"summary: first kernel {top[0][0]!r}, expected the heaviest {heaviest!r}")
    browser.screenshot(screenshots / "report-summary.png")

    show(browser, "kernels")
    table = table_cells(browser, "kernel-table")
    expected_head = ["kernel", "launches", "time (\u00b5s)", "time %", "mean (\u00b5s)"]
    expected_head += [f"{c} (sum)" for c in counters]
    check([h.rstrip(" \u25b2\u25bc") for h in table["head"]] == expected_head, f"kernels: columns {table['head']}")
    check(len(table["rows"]) == len(totals), f"kernels: {len(table['rows'])} rows, expected {len(totals)}")
    times = [number(row[2]) for row in table["rows"]]
    check(times == sorted(times, reverse=True), f"kernels: not sorted by time, largest first: {times}")
    for row in table["rows"]:
        expected = totals[row[0]]
        check(number(row[1]) == expected["launches"], f"kernels: {row[0]} launches {row[1]}")
        for position, counter in enumerate(counters):
            check(number(row[5 + position]) == expected["values"].get(counter),
                  f"kernels: {row[0]} {counter} {row[5 + position]} != {expected['values'].get(counter)}")
    browser.screenshot(screenshots / "report-kernels.png")
    browser.click("#kernel-table th[data-column='1']")  # launches, largest first
    launches = [number(row[1]) for row in table_cells(browser, "kernel-table")["rows"]]
    check(launches == sorted(launches, reverse=True), f"kernels: launches not sorted down: {launches}")
    browser.click("#kernel-table th[data-column='1']")  # again: smallest first
    launches = [number(row[1]) for row in table_cells(browser, "kernel-table")["rows"]]
    check(launches == sorted(launches), f"kernels: launches not sorted up: {launches}")
    browser.click("#kernel-table th[data-column='0']")  # names, A to Z
    names = [row[0] for row in table_cells(browser, "kernel-table")["rows"]]
    check(names == sorted(names), "kernels: names not sorted A to Z")
    browser.type("#kernel-table input.filter", "xmma")
    filtered = table_cells(browser, "kernel-table")
    expected_names = sorted(name for name in totals if "xmma" in name.lower())
    check([row[0] for row in filtered["rows"]] == expected_names, f"kernels: filter 'xmma' shows {filtered['rows']}")
    check(filtered["count"] == f"{len(expected_names)} of {len(totals)} rows", f"kernels: count {filtered['count']}")

    show(browser, "launches")
    launch_rows = table_cells(browser, "launch-table")["rows"]
    check(len(launch_rows) == len(document["samples"]), f"launches: {len(launch_rows)} rows")
    check([row[1] for row in launch_rows] == [s["kernel"] for s in document["samples"]],
          "launches: not in launch order")
    browser.screenshot(screenshots / "report-launches.png")

    show(browser, "roofline")
    points = browser.run("""return [...document.querySelectorAll('#roofline-chart circle.roofline-point')]
        .map((c) => [c.getAttribute('data-kernel'), Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);""")
    expected_points = {}
    for name, entry in totals.items():
        flops = sum(weight * entry["values"].get(counter, 0) for counter, weight in FLOP_TERMS)
        if flops > 0 and entry["values"].get("LocalVidMemBytes") and entry["time"] > 0:
            expected_points[name] = (flops / entry["values"]["LocalVidMemBytes"], flops / (entry["time"] * 1e-9))
    check(sorted(p[0] for p in points) == sorted(expected_points), f"roofline: points {sorted(p[0] for p in points)}")
    by_x = [p[0] for p in sorted(points, key=lambda p: (p[1], p[0]))]
    by_intensity = [name for name, _ in sorted(expected_points.items(), key=lambda item: (item[1][0], item[0]))]
    check(by_x == by_intensity, "roofline: points are not ordered left to right by FLOP per byte")
    by_height = [p[0] for p in sorted(points, key=lambda p: (-p[2], p[0]))]
    by_rate = [name for name, _ in sorted(expected_points.items(), key=lambda item: (item[1][1], item[0]))]
    check(by_height == by_rate, "roofline: points are not ordered bottom to top by FLOP/s")
    check(browser.run("return document.querySelectorAll('#roofline-chart .roof').length;") == 2,
          "roofline: the two roofs of --peak-flops and --peak-bandwidth are not drawn")
    browser.screenshot(screenshots / "report-roofline.png")

    show(browser, "ops")
    ops = {s.get("op") or "(no operator)" for s in document["samples"]}
    modules = {s.get("module") or "(no module)" for s in document["samples"]}
    op_rows = table_cells(browser, "op-table")["rows"]
    module_rows = table_cells(browser, "module-table")["rows"]
    check(sorted(row[0] for row in op_rows) == sorted(ops), f"ops: rows {[row[0] for row in op_rows]}")
    check(sorted(row[0] for row in module_rows) == sorted(modules), f"modules: rows {[row[0] for row in module_rows]}")
    op_time = sum(number(row[2]) for row in op_rows)
    check(abs(op_time - sum(t["time"] for t in totals.values()) / 1000) < 0.01 * len(op_rows),
          "ops: the operators' times do not add up to the step's")
    browser.screenshot(screenshots / "report-ops.png")
    assert_clean(browser, "torch report")


def table_cells_plain(browser, css):
    return browser.run(f"""return [...document.querySelectorAll('{css} tbody tr')]
        .map((tr) => [...tr.children].map((td) => td.title || td.textContent));""")


def check_ranks_and_benchmark(browser, opengpa, work, screenshots, benchmark):
    profile = work / "synthetic-5000-2ranks.json"
    with open(profile, "w") as output:
        json.dump(synthesize_profile.synthesize(5000, 2, 33), output)
    html = work / "ranks.html"
    run([opengpa, "report", str(profile), "-o", str(html), "-f"])
    totals = kernel_totals([profile])

    open_report(browser, html, "summary")
    milliseconds = rendered_ms(browser)
    print(f"report of 5,000 launches ({html.stat().st_size} bytes): drawn {milliseconds:.0f} ms after navigation")
    if benchmark:
        check(milliseconds < RENDER_LIMIT_MS, f"drawn in {milliseconds:.0f} ms, over {RENDER_LIMIT_MS:.0f} ms")
    top = table_cells_plain(browser, ".top-kernels")
    head = browser.run("return [...document.querySelectorAll('.top-kernels th')].map((th) => th.textContent);")
    check(head[3:] == ["bottleneck", "SOL SM %", "SOL Memory %", "SOL L1/TEX %", "SOL L2 %", "SOL DRAM %"],
          f"summary: columns {head}")
    check(all(row[3] in ("SM", "L1/TEX", "L2", "DRAM", "latency-bound") for row in top), f"summary: {top}")
    browser.screenshot(screenshots / "report-summary-sol.png")

    show(browser, "kernels")
    table = table_cells(browser, "kernel-table")
    check("time rank 0 (\u00b5s)" in [h.rstrip(" \u25b2\u25bc") for h in table["head"]] and
          "time rank 1 (\u00b5s)" in [h.rstrip(" \u25b2\u25bc") for h in table["head"]],
          f"kernels: no per-rank columns in {table['head']}")
    check(len(table["rows"]) == len(totals), "kernels: one row per kernel expected")

    show(browser, "ranks")
    ranks = table_cells(browser, "rank-table")["rows"]
    check(sorted(row[0] for row in ranks) == sorted(totals), "ranks: one row per kernel expected")
    check(all(row[1] == "2" for row in ranks), "ranks: every kernel ran on both ranks")
    browser.screenshot(screenshots / "report-ranks.png")

    show(browser, "launches")
    first_page = table_cells(browser, "launch-table")
    check(len(first_page["rows"]) == 100 and first_page["count"] == "5000 of 5000 rows", "launches: the first page")
    browser.click("#launch-table button.next")
    second_page = table_cells(browser, "launch-table")["rows"]
    check(second_page[0][0] == "100", f"launches: the second page starts at {second_page[0][0]}")
    assert_clean(browser, "ranks report")
    return milliseconds


def check_diff(browser, opengpa, work, screenshots):
    before, after = work / "before.json", work / "after.json"
    with open(before, "w") as output:
        json.dump(synthesize_profile.synthesize(60, 1, 7), output)
    with open(after, "w") as output:
        json.dump(synthesize_profile.synthesize(60, 1, 7, ("xmma", 1.5)), output)
    html = work / "diff.html"
    run([opengpa, "report", str(before), str(after), "--diff", "-o", str(html), "-f"])
    # Expected: the same draws, so only the xmma kernels' amounts moved (by x1.5, rounded): every counter of theirs
    # that is not zero; the SOL percentages and GPUBottleneck stay.
    before_totals, after_totals = kernel_totals([before]), kernel_totals([after])
    moved = sorted((name, counter) for name, entry in before_totals.items()
                   for counter, value in entry["values"].items()
                   if value and abs(after_totals[name]["values"][counter] - value) / value >= 0.05)
    check(moved and all("xmma" in name for name, _ in moved), f"diff: the synthetic runs moved {moved}")

    open_report(browser, html, "diff")
    show(browser, "diff")
    rows = browser.run("""return [...document.querySelectorAll('#diff-table tbody tr.moved')]
        .map((tr) => [tr.children[0].title, tr.children[1].title]);""")
    check(sorted(map(tuple, rows)) == moved, f"diff: moved rows {sorted(map(tuple, rows))}, expected {moved}")
    browser.screenshot(screenshots / "report-diff.png")
    assert_clean(browser, "diff report")


def check_sample_csv(browser, opengpa, work):
    csv = work / "vk_samples.csv"
    csv.write_text("Device,SampleId,Sample,GPUTime,VSBusy\n" "llvmpipe,0,draw triangles,1200,35.5\n"
                   "llvmpipe,1,draw triangles,800,12.5\n" "llvmpipe,2,dispatch,400,\n")
    html = work / "samples.html"
    run([opengpa, "report", str(csv), "-o", str(html), "-f"])
    open_report(browser, html, "kernels")
    show(browser, "kernels")
    rows = table_cells(browser, "kernel-table")["rows"]
    check([row[0] for row in rows] == ["draw triangles", "dispatch"], f"sample CSV: rows {rows}")
    # GPUTime summed (2000 ns), VSBusy averaged weighted by time: (35.5 x 1200 + 12.5 x 800) / 2000 = 26.3.
    check(rows[0][1] == "2" and number(rows[0][2]) == 2.0 and number(rows[0][-1]) == 26.3, f"sample CSV: {rows[0]}")
    assert_clean(browser, "sample CSV report")


def check_sampled_sol(browser, opengpa, work):
    """A sampled profile's unit throughputs (PM sampling's names) give the summary its SOL bars and busiest unit."""
    profile = synthesize_profile.synthesize(40, 1, 11)
    pm_names = {"SOL_SM": "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "SOL_L1TEX": "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
                "SOL_L2": "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed",
                "SOL_DRAM": "dram__throughput.avg.pct_of_peak_sustained_elapsed"}
    profile["counters"] = [dict(c, name=pm_names[c["name"]]) if c["name"] in pm_names else c
                           for c in profile["counters"] if c["name"] not in ("SOL_Memory", "GPUBottleneck")]
    for sample in profile["samples"]:
        values = sample["values"]
        values.pop("SOL_Memory")
        values.pop("GPUBottleneck")
        for name, pm_name in pm_names.items():
            values[pm_name] = values.pop(name)
    path = work / "sampled-sol.json"
    with open(path, "w") as output:
        json.dump(profile, output)
    html = work / "sampled-sol.html"
    run([opengpa, "report", str(path), "-o", str(html), "-f"])
    open_report(browser, html, "summary")
    head = browser.run("return [...document.querySelectorAll('.top-kernels th')].map((th) => th.textContent);")
    check(head[3:] == ["bottleneck", "SOL SM %", "SOL L1/TEX %", "SOL L2 %", "SOL DRAM %"], f"sampled SOL: {head}")
    top = table_cells_plain(browser, ".top-kernels")
    check(top and all(row[3] in ("SM (busiest)", "L1/TEX (busiest)", "L2 (busiest)", "DRAM (busiest)") for row in top),
          f"sampled SOL: bottlenecks {top}")
    # The busiest unit is the largest of the four bars of the row.
    for row in top:
        bars = dict(zip(("SM", "L1/TEX", "L2", "DRAM"), (number(cell) for cell in row[4:8])))
        check(row[3] == max(bars, key=bars.get) + " (busiest)", f"sampled SOL: {row[3]} for {bars}")
    assert_clean(browser, "sampled SOL report")


def check_real_inputs(browser, opengpa, work, screenshots, arguments):
    """Real inputs made here: a profile of tests/cli's OpenCL workload on PoCL (JSON and CSV), and the CSVs of the
    OpenCL and OpenGL samples (GPA samples on PoCL and llvmpipe); each that can be made is drawn and checked."""
    if arguments.cl_workload:
        prefix = work / "cl_profile"
        run([opengpa, "profile", "--api", "cl", "-o", str(prefix), "--force", "--", arguments.cl_workload, "4096"])
        for suffix in (".json", ".csv"):
            html = work / f"cl_profile{suffix}.html"
            run([opengpa, "report", str(prefix) + suffix, "-o", str(html), "-f"])
            open_report(browser, html, "kernels")
            show(browser, "kernels")
            rows = {row[0]: number(row[1]) for row in table_cells(browser, "kernel-table")["rows"]}
            check(rows == {"scale": 3, "add": 4, "fill2d": 1}, f"OpenCL profile {suffix}: kernels {rows}")
            if suffix == ".json":
                browser.screenshot(screenshots / "report-opencl.png")
            assert_clean(browser, f"OpenCL profile {suffix}")
    for sample in (arguments.cl_sample, arguments.gl_sample):
        if not sample:
            continue
        csv = work / (pathlib.Path(sample).name + ".csv")
        run([sample, "--csv", str(csv)])
        with open(csv) as table:
            header = table.readline().strip().split(",")
            labels = [line.split(",")[1] for line in table if line.strip()]
        html = work / (csv.name + ".html")
        run([opengpa, "report", str(csv), "-o", str(html), "-f"])
        open_report(browser, html, "kernels")
        show(browser, "kernels")
        table = table_cells(browser, "kernel-table")
        check(sorted(row[0] for row in table["rows"]) == sorted(set(labels)), f"{csv.name}: rows {table['rows']}")
        counters = [h for h in header if h not in ("SampleId", "Label", "Sample", "Device")]
        titles = [h.rstrip(" \u25b2\u25bc").rsplit(" (", 1)[0] for h in table["head"][5:]]
        check(titles == counters, f"{csv.name}: counter columns {titles}, the CSV has {counters}")
        if sample == arguments.gl_sample:
            browser.screenshot(screenshots / "report-gl-samples.png")
        assert_clean(browser, csv.name)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    check(result.returncode == 0, f"{' '.join(command)} exited {result.returncode}: {result.stderr}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--work", required=True, type=pathlib.Path)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver"))
    parser.add_argument("--benchmark", action="store_true", help="fail when 5,000 launches take 2 s or more")
    parser.add_argument("--cl-workload", help="tests/cli's OpenCL workload: a real OpenCL profile on PoCL")
    parser.add_argument("--cl-sample", help="samples/opencl's opengpa_cl_sample: a real GPA sample CSV")
    parser.add_argument("--gl-sample", help="samples/opengl's opengpa_gl_sample: a real GPA sample CSV")
    arguments = parser.parse_args()
    if not arguments.chromium or not arguments.chromedriver:
        print("SKIP: no chromium or chromedriver (apt-get install chromium chromium-driver)")
        return SKIP
    arguments.work.mkdir(parents=True, exist_ok=True)
    screenshots = arguments.work / "screenshots"
    screenshots.mkdir(exist_ok=True)
    os.environ.setdefault("HOME", str(arguments.work))
    browser = Browser(arguments.chromium, arguments.chromedriver, arguments.work)
    try:
        check_torch_report(browser, arguments.opengpa, arguments.work, screenshots)
        check_ranks_and_benchmark(browser, arguments.opengpa, arguments.work, screenshots, arguments.benchmark)
        check_diff(browser, arguments.opengpa, arguments.work, screenshots)
        check_sample_csv(browser, arguments.opengpa, arguments.work)
        check_sampled_sol(browser, arguments.opengpa, arguments.work)
        check_real_inputs(browser, arguments.opengpa, arguments.work, screenshots, arguments)
    except Failure as failure:
        browser.screenshot(screenshots / "failure.png")
        print(f"FAIL: {failure}")
        return 1
    finally:
        browser.close()
    print(f"passed; screenshots in {screenshots}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
