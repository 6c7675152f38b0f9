#!/usr/bin/env bash
# Builds, on the development machine, what run.sh executes on the GPU machine, into OUT: bin/opengpa, lib/ (the
# libraries `opengpa profile` loads, debug info stripped), sampled_truth (nvcc -arch=sm_90) and the scripts.
#   tests/device/sampled/build.sh BUILD_DIR OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$1
out=$2
ninja -C "$build" -j2 opengpa
mkdir -p "$out/bin" "$out/lib"
cp "$build/bin/opengpa" "$out/bin/"
cp "$build/lib/libOpenGPAProfile.so" "$build/lib/libopengpa_inject_cuda.so" "$build/lib/libGPUPerfAPICUDA.so" "$out/lib/"
strip --strip-debug "$out/bin/opengpa" "$out/lib/"*.so
"$root/tests/device/soname_copies.sh" "$out/lib"  # libopengpa_inject_cuda.so needs libOpenGPAProfile.so.3
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90 "$root/tests/device/sampled/sampled_truth.cu" -o "$out/sampled_truth"
cp "$root/tests/device/sampled/"{run.sh,workloads.sh,program_time.sh,sm_throughput.sh,compare.py,compare_profiles.py,compare_sol.py,sol.sh,program_phases.py,raw_window.py,start_probe.py,start_cost.py,tail_times.py} "$root/bench/profile/"{torch_program.py,gpt2_generate.py} "$out/"
du -sh "$out"
