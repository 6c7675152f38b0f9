#!/usr/bin/env python3
"""The cluster configurations in deploy/ are valid and run what they say (issue 29).

- deploy/prometheus/*.yml: `promtool check config`.
- deploy/otel/collector.yaml: its Prometheus receiver's scrape configuration, written out as a Prometheus
  configuration, passes `promtool check config`; the pipeline names that receiver.
- deploy/systemd/opengpa-monitor.service: `systemd-analyze verify` (the ExecStart binary replaced by the built one),
  then its ExecStart command run (port and duration made local and short) on a fake NVML: it must serve
  opengpa_power_watts with a host label.
- deploy/kubernetes/opengpa-monitor-daemonset.yaml: a DaemonSet whose container names its pod and namespace through
  the downward API, and whose command, run the same way ($(NODE_NAME) given a value), serves the series with the host
  label that command sets.
Prints PASS/FAIL per file; exit 0 when all pass.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml

failures = 0


def report(name, ok, detail):
    global failures
    print("%s  %s: %s" % ("PASS" if ok else "FAIL", name, detail))
    failures += 0 if ok else 1


def promtool_check(promtool, path):
    result = subprocess.run([promtool, "check", "config", path], capture_output=True, text=True, timeout=60)
    return result.returncode == 0, (result.stdout + result.stderr).strip().splitlines()[-1:]


def run_monitor(opengpa, arguments, fake_nvml, environment=None):
    """Runs `opengpa monitor ARGUMENTS` with --prometheus made 127.0.0.1:0 and a 20 s duration; returns the
    metrics text it served, or an explanation."""
    arguments = list(arguments)
    if "--prometheus" in arguments:
        arguments[arguments.index("--prometheus") + 1] = "127.0.0.1:0"
    env = dict(os.environ, OPENGPA_NVML_LIBRARY=fake_nvml, **(environment or {}))
    work = tempfile.mkdtemp(prefix="opengpa-deploy-")
    log_path = os.path.join(work, "monitor.log")
    with open(log_path, "w+") as log:
        process = subprocess.Popen([opengpa, *arguments, "--duration-s", "20"], stdout=subprocess.DEVNULL,
                                   stderr=log, env=env)
        try:
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and process.poll() is None:
                log.seek(0)
                match = re.search(r"serving http://127\.0\.0\.1:(\d+)/metrics", log.read())
                if match:
                    time.sleep(1.5)  # a tick or more of 1 s
                    with urllib.request.urlopen("http://127.0.0.1:%s/metrics" % match.group(1), timeout=5) as r:
                        return r.read().decode()
                time.sleep(0.1)
            log.seek(0)
            return "did not serve: " + log.read()[-800:]
        finally:
            process.kill()
            process.wait()
            shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--opengpa", required=True)
    parser.add_argument("--fake-nvml", required=True)
    args = parser.parse_args()
    deploy = os.path.join(args.root, "deploy")
    promtool = shutil.which("promtool")
    work = tempfile.mkdtemp(prefix="opengpa-deploy-check-")
    try:
        # Prometheus: the fleet scrape and the federation.
        for name in ("prometheus.yml", "federation.yml"):
            path = os.path.join(deploy, "prometheus", name)
            if promtool is None:
                report(name, False, "promtool is missing (Debian package prometheus; scripts/install_deps.sh)")
                continue
            copy = os.path.join(work, name)
            shutil.copy(path, copy)
            open(os.path.join(work, "gpu-hosts.json"), "w").write('[{"targets": ["localhost:9400"]}]\n')
            ok, tail = promtool_check(promtool, copy)
            report(name, ok, tail)

        # OpenTelemetry: the receiver's scrape configuration is Prometheus's.
        collector = yaml.safe_load(open(os.path.join(deploy, "otel", "collector.yaml")))
        scrape = collector["receivers"]["prometheus"]["config"]
        scrape_path = os.path.join(work, "otel-receiver.yml")
        yaml.safe_dump(scrape, open(scrape_path, "w"))
        ok, tail = promtool_check(promtool, scrape_path) if promtool else (False, ["promtool missing"])
        ok = ok and "prometheus" in collector["service"]["pipelines"]["metrics"]["receivers"]
        report("otel/collector.yaml", ok, tail)

        # systemd: the unit verifies, and its command serves the series.
        unit = open(os.path.join(deploy, "systemd", "opengpa-monitor.service")).read()
        exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1)
        command = shlex.split(exec_start)
        local_unit = os.path.join(work, "opengpa-monitor.service")
        open(local_unit, "w").write(unit.replace(command[0], os.path.abspath(args.opengpa)))
        analyze = shutil.which("systemd-analyze")
        if analyze:
            result = subprocess.run([analyze, "verify", local_unit], capture_output=True, text=True, timeout=60)
            complaints = [line for line in result.stderr.splitlines() if "opengpa-monitor.service" in line]
            report("systemd unit verifies", not complaints, complaints or "systemd-analyze verify: no complaint")
        text = run_monitor(args.opengpa, command[1:], args.fake_nvml)
        report("systemd ExecStart serves host-labelled series", re.search(r'opengpa_power_watts\{[^}]*host="', text)
               is not None, text.splitlines()[:3] if "power" not in text else "opengpa_power_watts with host")

        # Kubernetes: the DaemonSet's pod names itself through the downward API; its command serves host=<node>.
        daemonset = yaml.safe_load(open(os.path.join(deploy, "kubernetes", "opengpa-monitor-daemonset.yaml")))
        container = daemonset["spec"]["template"]["spec"]["containers"][0]
        env = {e["name"]: e.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath", e.get("value"))
               for e in container["env"]}
        downward = (env.get("POD_NAME") == "metadata.name" and env.get("POD_NAMESPACE") == "metadata.namespace" and
                    env.get("NODE_NAME") == "spec.nodeName")
        report("DaemonSet downward API", daemonset["kind"] == "DaemonSet" and downward, env)
        arguments = [a.replace("$(NODE_NAME)", "gpu-node-07") for a in container["args"]]
        text = run_monitor(args.opengpa, arguments, args.fake_nvml,
                           {"POD_NAME": "opengpa-monitor-x1", "POD_NAMESPACE": "monitoring"})
        labelled = re.search(r'opengpa_power_watts\{[^}]*host="gpu-node-07"[^}]*k8s_namespace="monitoring",'
                             r'k8s_pod="opengpa-monitor-x1"', text)
        report("DaemonSet command serves host, namespace and pod labels", labelled is not None,
               labelled.group(0) if labelled else text[-600:])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
