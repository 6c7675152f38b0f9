#!/usr/bin/env bash
# Installs the Debian packages OpenGPA builds and tests with (idempotent; needs root or sudo).
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config ccache
  libgtest-dev libgmock-dev libbenchmark-dev libfmt-dev nlohmann-json3-dev libcli11-dev
  libvulkan-dev vulkan-tools mesa-vulkan-drivers glslang-tools spirv-tools
  libegl-dev libgl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  python3-jsonschema
  chromium chromium-driver
  python3-pytest python3-numpy python3-pandas python3-matplotlib python3-pip python3-setuptools python3-wheel python3-venv
  prometheus python3-yaml systemd
  clang-14 libclang-rt-14-dev
  clang-format-14 clang-tidy-14 flake8
  lintian file binutils
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "opengpa: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
