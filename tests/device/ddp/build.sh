#!/usr/bin/env bash
# Stages, on the development machine, what run.sh needs on the GPU machine into STAGE_DIR (default
# build-device-ddp): bin/opengpa, lib/libopengpa_inject_cuda.so and lib/libOpenGPAProfile.so from BUILD_DIR (a
# normal build with CUDA, `ninja opengpa opengpa_inject_cuda OpenGPAProfile`), stripped, and the scripts.
#   tests/device/ddp/build.sh BUILD_DIR [STAGE_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
stage=${2:-build-device-ddp}
mkdir -p "$stage/bin" "$stage/lib" "$stage/tests"
cp "$build/bin/opengpa" "$stage/bin/"
cp "$build/lib/libopengpa_inject_cuda.so" "$build/lib/libOpenGPAProfile.so" "$stage/lib/"
strip "$stage/bin/opengpa" "$stage/lib/"*.so
"$here/../soname_copies.sh" "$stage/lib"
cp "$here/ddp_train.py" "$here/check_ddp.py" "$here/run.sh" "$stage/tests/"
du -sh "$stage"
