#!/usr/bin/env python3
"""A real Prometheus server scrapes `opengpa monitor` and answers a query for a value it exported.

`opengpa monitor --prometheus 127.0.0.1:0` runs on a fake libnvidia-ml that reports a fixed power draw
(123456 mW, tests/monitor/fake_nvml.c). Prometheus (Debian package prometheus) starts on loopback with a
temporary configuration that scrapes that endpoint every second and a temporary TSDB; the check passes
once Prometheus's HTTP API answers `opengpa_power_watts` with 123.456 and `up` with 1 for the target.
Everything is bounded: both processes are killed at the end, and the whole check gives up after 75 s.

With --two-hosts (issue 29), two monitors play two hosts (`--label host=alpha` and `--label host=beta`, each on
its own port): Prometheus scrapes both, and a query across both must answer: every series carries its host,
`count by (host)` finds the two hosts, and their sum is twice the power.

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


def start_monitor(args, work, name, deadline_s, labels):
    """`opengpa monitor` on the fake NVML serving a free loopback port: (process, port, log), port None on failure."""
    environment = dict(os.environ, OPENGPA_NVML_LIBRARY=args.fake_nvml)
    log = open(os.path.join(work, name + ".log"), "w+")
    process = subprocess.Popen(
        [args.opengpa, "monitor", "--prometheus", "127.0.0.1:0", "--counters", "power_watts",
         "--interval-ms", "100", "--duration-s", str(deadline_s + 10), *labels],
        stdout=subprocess.DEVNULL, stderr=log, env=environment)
    start = time.monotonic()
    while time.monotonic() - start < 15 and process.poll() is None:
        log.seek(0)
        match = re.search(r"serving http://127\.0\.0\.1:(\d+)/metrics", log.read())
        if match:
            return process, int(match.group(1)), log
        time.sleep(0.1)
    log.seek(0)
    print("FAIL: opengpa monitor (%s) did not start serving:\n%s" % (name, log.read()))
    return process, None, log


def start_prometheus(prometheus, work, targets):
    port = free_loopback_port()
    config = os.path.join(work, "prometheus.yml")
    with open(config, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                "scrape_configs:\n  - job_name: opengpa\n    static_configs:\n"
                "      - targets: [%s]\n" % ", ".join("'127.0.0.1:%d'" % target for target in targets))
    log = open(os.path.join(work, "prometheus.log"), "w+")
    server = subprocess.Popen(
        [prometheus, "--config.file=" + config, "--storage.tsdb.path=" + os.path.join(work, "data"),
         "--web.listen-address=127.0.0.1:%d" % port, "--log.level=warn"],
        stdout=log, stderr=subprocess.STDOUT, cwd=work)
    return server, port, log


def check_two_hosts(args, work, alpha_port, deadline_s, prometheus, others):
    beta, beta_port, beta_log = start_monitor(args, work, "beta", deadline_s, ["--label", "host=beta"])
    others.append(beta)
    if beta_port is None:
        return 1
    server, prometheus_port, server_log = start_prometheus(prometheus, work, [alpha_port, beta_port])
    others.append(server)
    start = time.monotonic()
    last = "no answer yet"
    while time.monotonic() - start < DEADLINE_S:
        if server.poll() is not None:
            break
        try:
            hosts = query(prometheus_port, "count by (host) (opengpa_power_watts)")
            total = query(prometheus_port, "sum(opengpa_power_watts)")
            series = query(prometheus_port, "opengpa_power_watts")
            last = "hosts %s; sum %s; series %s" % (hosts, total, [s["metric"] for s in series])
            if (sorted(h["metric"].get("host") for h in hosts) == ["alpha", "beta"] and len(total) == 1 and
                    abs(float(total[0]["value"][1]) - 2 * EXPECTED_WATTS) < 1e-9 and
                    all(s["metric"].get("host") in ("alpha", "beta") for s in series)):
                print("PASS: one Prometheus scraped two monitors playing two hosts: %s after %.1f s" %
                      (last, time.monotonic() - start))
                return 0
        except (OSError, RuntimeError, ValueError, KeyError) as error:
            last = "query failed: %s" % error
        time.sleep(0.5)
    server_log.seek(0)
    print("FAIL: no answer across both hosts (last: %s)\n--- prometheus\n%s" % (last, server_log.read()[-4000:]))
    return 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--fake-nvml", required=True)
    parser.add_argument("--abuse", help="SILENT,TRICKLING connections pressing on the endpoint")
    parser.add_argument("--window-s", type=int, default=20)
    parser.add_argument("--two-hosts", action="store_true", help="two monitors labelled host=alpha and host=beta")
    args = parser.parse_args()
    silent, trickling = (int(n) for n in args.abuse.split(",")) if args.abuse else (0, 0)
    deadline_s = DEADLINE_S + (args.window_s + 15 if args.abuse else 0)
    prometheus = shutil.which(args.prometheus)
    if prometheus is None:
        print("FAIL: no prometheus binary (%s); scripts/install_deps.sh installs Debian's prometheus" % args.prometheus)
        return 1

    work = tempfile.mkdtemp(prefix="opengpa-prometheus-")
    monitor = server = None
    others = []
    try:
        start = time.monotonic()
        labels = ["--label", "host=alpha"] if args.two_hosts else []
        monitor, monitor_port, monitor_log = start_monitor(args, work, "monitor", deadline_s, labels)
        if monitor_port is None:
            return 1
        if args.two_hosts:
            return check_two_hosts(args, work, monitor_port, deadline_s, prometheus, others)

        server, prometheus_port, server_log = start_prometheus(prometheus, work, [monitor_port])

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
        for process in others:
            stop(process)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
