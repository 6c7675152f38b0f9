#!/usr/bin/env bash
# Stages, on the development machine, what two_gpus.sh needs on the GPU machine (kind nvidia-h100-x2) into STAGE
# (default build-device-two-gpus): bin/opengpa, lib/libopengpa_inject_cuda.so and lib/libOpenGPAProfile.so from
# BUILD_DIR (a normal build with CUDA: `ninja opengpa opengpa_inject_cuda OpenGPAProfile`), stripped; copy_loop
# built with nvcc for sm_90; the scripts.
#   tests/device/monitor/build_two_gpus.sh BUILD_DIR [STAGE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
stage=${2:-build-device-two-gpus}
mkdir -p "$stage/bin" "$stage/lib" "$stage/tests"
export PATH="$PATH:/usr/local/cuda/bin"
cp "$build/bin/opengpa" "$stage/bin/"
cp "$build/lib/libopengpa_inject_cuda.so" "$build/lib/libOpenGPAProfile.so" "$stage/lib/"
strip "$stage/bin/opengpa" "$stage/lib/"*.so
# libopengpa_inject_cuda.so asks for libOpenGPAProfile.so.3: without that name beside it, CUDA drops the injection
# without a word and `opengpa profile` profiles nothing (seen in this suite's first two runs).
"$here/../soname_copies.sh" "$stage/lib"
nvcc -O3 -std=c++17 -arch=sm_90 "$here/copy_loop.cu" -o "$stage/tests/copy_loop"
cp "$here/two_gpus.sh" "$here/two_gpus_check.py" "$stage/tests/"
du -sh "$stage"
