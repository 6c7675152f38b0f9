#!/usr/bin/env bash
# Stages, on the development machine, what run.sh needs on the GPU machine into STAGE_DIR (default
# build-device-processes): bin/opengpa, lib/libopengpa_inject_cuda.so and lib/libOpenGPAProfile.so from BUILD_DIR
# (a normal build with CUDA, `ninja opengpa`), stripped, and the test programs built with nvcc for sm_90.
#   tests/device/processes/build.sh BUILD_DIR [STAGE_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
stage=${2:-build-device-processes}
mkdir -p "$stage/bin" "$stage/lib" "$stage/tests"
export PATH="$PATH:/usr/local/cuda/bin"
cp "$build/bin/opengpa" "$stage/bin/"
cp "$build/lib/libopengpa_inject_cuda.so" "$build/lib/libOpenGPAProfile.so" "$stage/lib/"
strip "$stage/bin/opengpa" "$stage/lib/"*.so
"$here/../soname_copies.sh" "$stage/lib"  # libopengpa_inject_cuda.so needs libOpenGPAProfile.so.3
nvcc -O2 -arch=sm_90 -shared -Xcompiler -fPIC "$here/spawn_kernels.cu" -o "$stage/tests/libspawn_kernels.so"
nvcc -O2 -arch=sm_90 "$here/spawn_check.cu" -o "$stage/tests/spawn_check" -L"$stage/tests" -lspawn_kernels \
  -Xlinker -rpath -Xlinker '$ORIGIN'
cp "$here/parent.py" "$here/run.sh" "$here/check_processes.py" "$stage/tests/"
du -sh "$stage"
