#!/usr/bin/env bash
# Installs OpenGPA's Debian packages with `dpkg -i` on a fresh Debian 12 system (a debootstrap'ed root, entered with
# chroot) and checks that they work there: dpkg is given only our packages, apt then installs exactly the
# dependencies they declare (no Recommends), every package must end up "install ok installed", and the installed
# CLI, Python package and a downstream find_package(OpenGPA) / pkg-config build must work.
#
#   sudo tests/install/debian_chroot_check.sh PACKAGE_DIR [ROOT]
#
# PACKAGE_DIR: the .deb files of scripts/build_packages.sh. ROOT: a Debian 12 root made by
#   debootstrap --variant=minbase bookworm ROOT http://deb.debian.org/debian
# (made here when absent). Needs root (chroot, mount) and a Debian mirror, so it is not part of ctest; the run and
# its figures are in docs/packaging.md. The root is changed (packages installed): use a fresh one for each run.
set -euo pipefail
packages=$(cd "$1" && pwd)
root=${2:-/tmp/opengpa-debian12-root}
source=$(cd "$(dirname "$0")/../.." && pwd)
if [[ ! -x $root/usr/bin/dpkg ]]; then
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
cleanup() { umount "$root/dev/pts" "$root/dev" "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
rm -rf "$root/opengpa" && mkdir -p "$root/opengpa/packages"
cp "$packages"/*.deb "$root/opengpa/packages/"
cp -r "$source/tests/install/downstream" "$root/opengpa/downstream"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
in_root apt-get update -qq
echo "== dpkg -i (a fresh system lacks the dependencies: dpkg leaves the packages unconfigured)"
in_root sh -c 'dpkg -i /opengpa/packages/*.deb' || true
echo "== apt-get -f install --no-install-recommends: the declared dependencies, nothing else"
in_root apt-get -f install -y -qq --no-install-recommends
declared=$(in_root sh -c "dpkg-query -W -f='\${Depends}\n' libopengpa3 libopengpa-dev opengpa python3-opengpa")
echo "declared Depends: $(echo "$declared" | tr '\n' ' ')"
status=0
for package in libopengpa3 libopengpa-dev opengpa python3-opengpa; do
  state=$(in_root dpkg-query -W -f='${Status} ${Version}' "$package")
  echo "$package: $state"
  [[ $state == "install ok installed "* ]] || status=1
done
echo "== the installed programs"
in_root opengpa --version || status=1
in_root python3 -c "import opengpa; names = [c.name for c in opengpa.list_counters(api='vulkan')]; \
print('python3-opengpa', opengpa.__version__, len(names), 'Vulkan counters, GPUTime' if 'GPUTime' in names else 'no GPUTime')" ||
  status=1
echo "== a downstream build (find_package and pkg-config) and a run on lavapipe"
in_root apt-get install -y -qq --no-install-recommends cmake ninja-build g++ pkgconf libvulkan-dev \
  mesa-vulkan-drivers >/dev/null
in_root cmake -S /opengpa/downstream -B /opengpa/build -G Ninja >/dev/null || status=1
in_root cmake --build /opengpa/build >/dev/null || status=1
in_root /opengpa/build/downstream_vk || status=1
in_root sh -c 'printf "#include \"gpu_performance_api/gpu_perf_api.h\"\nint main(void){GpaFunctionTable t={0};t.major_version=GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;t.minor_version=GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;return GpaGetFuncTable(&t)==kGpaStatusOk?0:1;}\n" >/opengpa/t.c && cc /opengpa/t.c -o /opengpa/t $(pkg-config --cflags --libs opengpa-vk) && /opengpa/t && echo "pkg-config opengpa-vk: GpaGetFuncTable ok"' ||
  status=1
in_root opengpa list --api vk --names | head -3 || status=1
echo "debian_chroot_check: status $status"
exit $status
