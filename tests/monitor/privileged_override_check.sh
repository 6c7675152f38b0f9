#!/usr/bin/env bash
# Library overrides from the environment (OPENGPA_NVML_LIBRARY, ...) are ignored in a privileged process
# (issue 35, N7). A copy of privileged_override_probe, set-user-ID root, runs as user nobody with
# OPENGPA_NVML_LIBRARY naming a fake NVML: it must run with euid 0, must not load the fake, and must say why;
# the same probe without the set-user-ID bit must load it (so the override itself works and the check can
# fail). Needs root (CI runs as root) or password-less sudo to make a set-user-ID-root file; fails otherwise.
# Usage: privileged_override_check.sh PROBE LIBOPENGPAMONITOR FAKE_NVML
set -euo pipefail
probe=$1 monitor=$2 fake=$3
if [[ $EUID -ne 0 ]]; then
  if sudo -n true 2>/dev/null; then exec sudo -n "$0" "$@"; fi
  echo "FAIL: making a set-user-ID-root program needs root or password-less sudo (CI runs as root)"
  exit 1
fi
fake_uuid=GPU-00000000-0000-0000-0000-000000000000
work=
cleanup() { if [[ -n $work ]]; then rm -rf "$work"; fi; }
trap cleanup EXIT
# A folder nobody can reach, on a file system that honours set-user-ID bits (/tmp may be mounted nosuid).
for parent in "${TMPDIR:-/tmp}" "$(dirname "$probe")"; do
  cleanup
  work=$(mktemp -d "$parent/opengpa-setuid-XXXXXX")
  chmod 755 "$work"
  cp "$probe" "$work/probe"
  cp "$monitor" "$work/libOpenGPAMonitor.so"
  cp "$fake" "$work/libfake_nvml.so"
  chown root:root "$work"/*
  chmod 755 "$work"/*
  chmod 4755 "$work/probe"
  run() { setpriv --reuid=nobody --regid=nogroup --clear-groups env OPENGPA_NVML_LIBRARY="$work/libfake_nvml.so" "$@"; }
  privileged=$(run "$work/probe" "$work/libOpenGPAMonitor.so" 2>&1) || true
  [[ $privileged == *"euid 0 uid "* ]] && break
  echo "note: $parent: the set-user-ID probe did not run as root (nosuid, or not reachable by nobody): $privileged"
done
echo "--- set-user-ID root, run by nobody:"
echo "$privileged"
status=0
if [[ $privileged != *"euid 0 uid "* ]]; then
  echo "FAIL: no folder tried lets a set-user-ID-root program run as root"
  exit 1
fi
if [[ $privileged == *"device $fake_uuid"* ]]; then
  echo "FAIL: the privileged program loaded the library OPENGPA_NVML_LIBRARY named"
  status=1
fi
if [[ $privileged != *"OPENGPA_NVML_LIBRARY is ignored in a privileged"* ]]; then
  echo "FAIL: the privileged program does not say that it ignored OPENGPA_NVML_LIBRARY"
  status=1
fi
chmod 755 "$work/probe"
ordinary=$(run "$work/probe" "$work/libOpenGPAMonitor.so" 2>&1) || true
echo "--- the same probe without the set-user-ID bit, run by nobody:"
echo "$ordinary"
if [[ $ordinary != *"device $fake_uuid"* ]]; then
  echo "FAIL: an ordinary program did not load the library OPENGPA_NVML_LIBRARY named"
  status=1
fi
[[ $status == 0 ]] && echo "PASS: the override is honoured in an ordinary program and ignored in a set-user-ID one"
exit $status
