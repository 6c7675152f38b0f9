#!/usr/bin/env python3
"""A real Prometheus server scrapes `opengpa monitor` and answers a query for a value it exported.

`opengpa monitor --prometheus 127.0.0.1:0` runs on a fake libnvidia-ml that reports a fixed power draw
(123456 mW, tests/monitor/fake_nvml.c). Prometheus (Debian package prometheus) starts on loopback with a
temporary configuration that scrapes that endpoint every second and a temporary TSDB; the check passes
once Prometheus's HTTP API answers `opengpa_power_watts` with 123.456 and `up` with 1 for the target.
Everything is bounded: both processes are killed at the end, and the whole check gives up after 75 s.

With --abuse SILENT,TRICKLING (issue 35), once Prometheus has scraped the endpoint, that many connections that
send nothing and that trickle a request a byte per 100 ms (each opened again as soon as the server closes it)
press on the endpoint for --window-s seconds; every scrape Prometheus made in that window must have found the
target up (min_over_time(up) = 1, and at least half the scrapes a 1 s interval gives).
"""
import argparse
import json
import os
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

EXPECTED_WATTS = 123.456
DEADLINE_S = 75


def free_loopback_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def query(prometheus_port, expression):
    url = "http://127.0.0.1:%d/api/v1/query?%s" % (prometheus_port, urllib.parse.urlencode({"query": expression}))
    with urllib.request.urlopen(url, timeout=5) as response:
        answer = json.load(response)
    if answer.get("status") != "success":
        raise RuntimeError("query %r failed: %r" % (expression, answer))
    return answer["data"]["result"]


class AbusiveClients:
    """`silent` connections that send nothing and `trickling` ones that send the start of a request, then a
    byte per 100 ms; a connection the server closes is opened again at once (at most max_connects in all)."""

    def __init__(self, port, silent, trickling, max_connects=200000):
        self.port = port
        self.kinds = ["silent"] * silent + ["trickling"] * trickling
        self.max_connects = max_connects
        self.connects = 0
        self.closed_by_server = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def open(self, selector, kind):
        if self.connects >= self.max_connects:
            return
        self.connects += 1
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", self.port))
        state = {"kind": kind, "next": time.monotonic(), "started": False}
        selector.register(s, selectors.EVENT_READ, state)

    def run(self):
        selector = selectors.DefaultSelector()
        for kind in self.kinds:
            self.open(selector, kind)
        while not self.stopping.is_set():
            now = time.monotonic()
            for key in list(selector.get_map().values()):
                state = key.data
                if state["kind"] == "trickling" and now >= state["next"]:
                    try:
                        key.fileobj.send(b"a" if state["started"] else b"GET /metrics HTTP/1.1\r\nX-Slow: ")
                        state["started"] = True
                    except (BlockingIOError, InterruptedError):
                        pass
                    except OSError:
                        pass  # closed: the read below sees it
                    state["next"] = now + 0.1
            for key, _ in selector.select(timeout=0.02):
                try:
                    data = key.fileobj.recv(512)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    self.closed_by_server += 1
                    self.open(selector, key.data["kind"])
        for key in list(selector.get_map().values()):
            key.fileobj.close()

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=10)


def stop(process):
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def check_under_abuse(args, prometheus_port, monitor_port, silent, trickling, monitor):
    """Presses on the endpoint for the window, then asks Prometheus what its scrapes saw in it."""
    abuse = AbusiveClients(monitor_port, silent, trickling)
    try:
        time.sleep(args.window_s)
        if monitor.poll() is not None:
            print("FAIL: opengpa monitor exited (%s) under the abusive clients" % monitor.returncode)
            return 1
        window = "%ds" % (args.window_s - 2)  # inside the window: the abuse was on for all of it
        count = query(prometheus_port, 'count_over_time(up{job="opengpa"}[%s])' % window)
        lowest = query(prometheus_port, 'min_over_time(up{job="opengpa"}[%s])' % window)
        total = query(prometheus_port, 'sum_over_time(up{job="opengpa"}[%s])' % window)
    finally:
        abuse.stop()
    scrapes = int(float(count[0]["value"][1])) if count else 0
    up = int(float(total[0]["value"][1])) if total else 0
    summary = ("%d silent + %d trickling clients for %d s (%d connections opened, %d closed by the server): "
               "up=1 in %d of %d scrapes" % (silent, trickling, args.window_s, abuse.connects,
                                             abuse.closed_by_server, up, scrapes))
    if scrapes >= (args.window_s - 2) // 2 and lowest and lowest[0]["value"][1] == "1":
        print("PASS: " + summary)
        return 0
    print("FAIL: " + summary)
    return 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--fake-nvml", required=True)
    parser.add_argument("--abuse", help="SILENT,TRICKLING connections pressing on the endpoint")
    parser.add_argument("--window-s", type=int, default=20)
    args = parser.parse_args()
    silent, trickling = (int(n) for n in args.abuse.split(",")) if args.abuse else (0, 0)
    deadline_s = DEADLINE_S + (args.window_s + 15 if args.abuse else 0)
    prometheus = shutil.which(args.prometheus)
    if prometheus is None:
        print("FAIL: no prometheus binary (%s); scripts/install_deps.sh installs Debian's prometheus" % args.prometheus)
        return 1

    work = tempfile.mkdtemp(prefix="opengpa-prometheus-")
    monitor = server = None
    try:
        environment = dict(os.environ, OPENGPA_NVML_LIBRARY=args.fake_nvml)
        monitor_log = open(os.path.join(work, "monitor.log"), "w+")
        monitor = subprocess.Popen(
            [args.opengpa, "monitor", "--prometheus", "127.0.0.1:0", "--counters", "power_watts",
             "--interval-ms", "100", "--duration-s", str(deadline_s + 10)],
            stdout=subprocess.DEVNULL, stderr=monitor_log, env=environment)
        start = time.monotonic()
        monitor_port = None
        while monitor_port is None and time.monotonic() - start < 15:
            if monitor.poll() is not None:
                break
            monitor_log.seek(0)
            match = re.search(r"serving http://127\.0\.0\.1:(\d+)/metrics", monitor_log.read())
            if match:
                monitor_port = int(match.group(1))
            else:
                time.sleep(0.1)
        if monitor_port is None:
            monitor_log.seek(0)
            print("FAIL: opengpa monitor did not start serving:\n" + monitor_log.read())
            return 1

        prometheus_port = free_loopback_port()
        config = os.path.join(work, "prometheus.yml")
        with open(config, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                    "scrape_configs:\n  - job_name: opengpa\n    static_configs:\n"
                    "      - targets: ['127.0.0.1:%d']\n" % monitor_port)
        server_log = open(os.path.join(work, "prometheus.log"), "w+")
        server = subprocess.Popen(
            [prometheus, "--config.file=" + config, "--storage.tsdb.path=" + os.path.join(work, "data"),
             "--web.listen-address=127.0.0.1:%d" % prometheus_port, "--log.level=warn"],
            stdout=server_log, stderr=subprocess.STDOUT, cwd=work)

        last = "no answer yet"
        while time.monotonic() - start < DEADLINE_S:
            if server.poll() is not None or monitor.poll() is not None:
                break
            try:
                power = query(prometheus_port, 'opengpa_power_watts{job="opengpa"}')
                up = query(prometheus_port, 'up{job="opengpa"}')
                last = "opengpa_power_watts: %s; up: %s" % (power, up)
                if (len(power) == 1 and abs(float(power[0]["value"][1]) - EXPECTED_WATTS) < 1e-9 and
                        power[0]["metric"].get("uuid") == "GPU-00000000-0000-0000-0000-000000000000" and
                        len(up) == 1 and up[0]["value"][1] == "1"):
                    print("PASS: Prometheus %s scraped opengpa monitor on 127.0.0.1:%d: %s after %.1f s" %
                          (prometheus_port, monitor_port, last, time.monotonic() - start))
                    if not args.abuse:
                        return 0
                    return check_under_abuse(args, prometheus_port, monitor_port, silent, trickling, monitor)
            except (OSError, RuntimeError, ValueError, KeyError) as error:
                last = "query failed: %s" % error
            time.sleep(0.5)
        server_log.seek(0)
        monitor_log.seek(0)
        print("FAIL: Prometheus never answered opengpa_power_watts = %s (last: %s)\n--- prometheus\n%s\n"
              "--- monitor\n%s" % (EXPECTED_WATTS, last, server_log.read()[-4000:], monitor_log.read()[-4000:]))
        return 1
    finally:
        stop(server)
        stop(monitor)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
