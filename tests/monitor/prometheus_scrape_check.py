#!/usr/bin/env python3
"""A real Prometheus server scrapes `opengpa monitor` and answers a query for a value it exported.

`opengpa monitor --prometheus 127.0.0.1:0` runs on a fake libnvidia-ml that reports a fixed power draw
(123456 mW, tests/monitor/fake_nvml.c). Prometheus (Debian package prometheus) starts on loopback with a
temporary configuration that scrapes that endpoint every second and a temporary TSDB; the check passes
once Prometheus's HTTP API answers `opengpa_power_watts` with 123.456 and `up` with 1 for the target.
Everything is bounded: both processes are killed at the end, and the whole check gives up after 75 s.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
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


def stop(process):
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--fake-nvml", required=True)
    args = parser.parse_args()
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
             "--interval-ms", "100", "--duration-s", str(DEADLINE_S + 10)],
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
                    return 0
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
