#!/usr/bin/env bash
# On the GPU machine: pm_rate over intervals, hardware buffers and decode periods; prints a Markdown table.
#   bench/pm_sampling/run.sh BIN_DIR SECONDS "INTERVAL_US BUFFER_MIB DECODE_MS [METRICS]"...
set -uo pipefail
bin=$1
seconds=${2:-2}
cupti=$(ls /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13 2>/dev/null | head -n 1)
[[ -n $cupti ]] && export OPENGPA_CUPTI_LIBRARY=$cupti LD_LIBRARY_PATH="$(dirname "$cupti"):${LD_LIBRARY_PATH:-}"
echo "| metrics | interval µs | buffer MiB | decode ms | samples | span µs median / p90 | covered / sampled ms | gaps / lost ms | overflows | decode ms avg / max | evaluate µs per sample | image MiB | readying ms per decode | images waiting, most | DRAM read / truth |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for setting in "${@:3}"; do
  # shellcheck disable=SC2086
  set -- $setting; "$bin/pm_rate" "$1" "$2" "$3" "$seconds" ${4:+"$4"} 2>"/tmp/pm_rate_err.txt" || echo "| $setting | failed: $(tail -c 300 /tmp/pm_rate_err.txt | tr '\n' ' ') |"
  grep -v "^$" /tmp/pm_rate_err.txt | head -n 4 | sed 's/^/    /' >&2
done
