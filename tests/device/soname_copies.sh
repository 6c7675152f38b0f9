#!/usr/bin/env bash
# Gives every library of a device suite's out folder its SONAME as well (tests/device/*/build.sh call it after
# copying libraries there): libGPUPerfAPICUDA.so is libGPUPerfAPICUDA.so.3 to the dynamic loader, and a program
# linked with -lGPUPerfAPICUDA (or libopengpa_inject_cuda.so, NEEDED libOpenGPAProfile.so.3) asks for that name.
# A copy rather than a link, so that it travels to the GPU machine whatever carries the folder.
# Usage: tests/device/soname_copies.sh FOLDER...
set -euo pipefail
for folder in "$@"; do
  for library in "$folder"/*.so; do
    [[ -f $library && ! -L $library ]] || continue
    soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    if [[ -n $soname && $soname != "$(basename "$library")" ]]; then
      cp "$library" "$folder/$soname"
    fi
  done
done
