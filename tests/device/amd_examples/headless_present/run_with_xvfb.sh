#!/usr/bin/env bash
# Runs a test program under a private Xvfb (a free display number of Xvfb's own choosing), for
# headless_present_test. Exits 77, which ctest reports as "skipped", with a message where Xvfb is not installed
# (CI's image has none: apt-get install xvfb runs it).
#
#   run_with_xvfb.sh PROGRAM [ARGUMENTS...]
set -euo pipefail
if ! command -v Xvfb >/dev/null; then
  echo "skipped: Xvfb is not installed (apt-get install xvfb), so there is no X server for the test's window"
  exit 77
fi
folder=$(mktemp -d)
Xvfb -displayfd 3 -screen 0 320x240x24 -nolisten tcp 3>"$folder/display" 2>"$folder/xvfb.log" &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; wait "$xvfb" 2>/dev/null; rm -rf "$folder"' EXIT
for _ in $(seq 100); do
  [[ -s $folder/display ]] && break
  sleep 0.1
done
if [[ ! -s $folder/display ]]; then
  echo "Xvfb did not start:" >&2
  cat "$folder/xvfb.log" >&2
  exit 1
fi
DISPLAY=:$(head -n 1 "$folder/display") "$@"
