#!/usr/bin/env python3
"""Checks the Debian packages CPack made of a build (tests/install/CMakeLists.txt and scripts/build_packages.sh).

usage: debian_packages_check.py layout PACKAGE_DIR SOURCE_DIR
       debian_packages_check.py downstream PACKAGE_DIR SOURCE_DIR

layout      the split (libopengpa<major>, libopengpa-dev, opengpa, python3-opengpa, and -dbgsym .ddeb files when
            present), one version everywhere (CMakeLists.txt's project(VERSION): each package, the changelog, the
            CLI's --version, Python's _version.py, the .pc files), versioned SONAMEs and the unversioned names GPA's
            loaders dlopen, stripped ELF files whose build ids the -dbgsym packages hold, headers under
            gpu_performance_api/ and opengpa/ only, no -rpath in .pc files, a DEP-5 copyright file and a Debian
            changelog in every package, and the man page.
downstream  extracts libopengpa<major> and libopengpa-dev into a folder, as `dpkg -i` would install them, and builds
            tests/install/downstream with find_package(OpenGPA) and a C program with pkg-config against it; both run
            on the first Vulkan device. The CLI component is found only once the opengpa package is there too;
            then the extracted `opengpa list --api vk` and, with python3-opengpa, Debian's python3 list Vulkan's
            counters.

Exit 0 when every check passes, 1 at the first failure (with what was found), 77 (ctest's skip) when dpkg-deb is
not installed or no package was made.
"""

import glob
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
DEP5_FORMAT = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
# The libraries programs link: a versioned SONAME, and the unversioned link GPA's loaders dlopen.
LINKED = ("libGPUPerfAPIVK", "libGPUPerfAPIGL", "libGPUPerfAPICL", "libGPUPerfAPICUDA", "libOpenGPAMonitor",
          "libOpenGPAProfile")
# Plugins, opened by the name their loader asks for: unversioned, SONAME = file name.
PLUGINS = {"libopengpa3": ("libGPUPerfAPICounters.so", "libNvPmApi.Core.so", "libVkLayer_opengpa_gpa_interface.so"),
           "opengpa": ("libopengpa_intercept_cl.so", "libopengpa_inject_cuda.so")}
OPTIONAL_PLUGINS = ("libNvPmApi.Core.so", "libopengpa_intercept_cl.so", "libopengpa_inject_cuda.so")


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def run(*command, **options):
    return subprocess.run(command, capture_output=True, text=True, **options)


def project_version(source):
    with open(os.path.join(source, "CMakeLists.txt"), encoding="utf-8") as cmake_lists:
        return re.search(r"^project\(OpenGPA VERSION ([0-9.]+)", cmake_lists.read(), re.MULTILINE).group(1)


def packages_in(folder):
    """{package name: .deb or .ddeb path}."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.deb")) + glob.glob(os.path.join(folder, "*.ddeb"))):
        found[run("dpkg-deb", "-f", path, "Package", check=True).stdout.strip()] = path
    return found


def extract(deb, root):
    subprocess.run(["dpkg-deb", "-x", deb, root], check=True)


def readelf(path, option):
    return run("readelf", option, path, check=True).stdout


def build_id(path):
    match = re.search(r"Build ID: ([0-9a-f]+)", run("readelf", "-n", path, check=True).stdout)
    return match.group(1) if match else None


def elf_files(root):
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                with open(path, "rb") as handle:
                    if handle.read(4) == b"\x7fELF":
                        yield path


def check_documents(name, root, version):
    doc = os.path.join(root, "usr/share/doc", name)
    if name.endswith("-dbgsym"):  # debhelper's convention: a link to the served package's documentation
        expect(os.readlink(doc) == name[:-len("-dbgsym")], f"{name}: usr/share/doc/{name} is not a link")
        return
    with open(os.path.join(doc, "copyright"), encoding="utf-8") as copyright_file:
        copyright_text = copyright_file.read()
    expect(copyright_text.startswith(DEP5_FORMAT), f"{name}: copyright is not DEP-5: {copyright_text[:80]!r}")
    expect("\nLicense: Expat\n" in copyright_text, f"{name}: copyright has no Expat license paragraph")
    with gzip.open(os.path.join(doc, "changelog.gz"), "rt", encoding="utf-8") as changelog:
        first = changelog.readline()
    expect(first.startswith(f"opengpa ({version}) "), f"{name}: the changelog's first entry is {first.strip()!r}, "
           f"not version {version} (add an entry to packaging/debian/changelog when the version changes)")


def check_runtime(name, root, version):
    lib = os.path.join(root, "usr/lib")
    major = version.split(".")[0]
    for library in LINKED:
        real = os.path.join(lib, f"{library}.so.{version}")
        if library == "libGPUPerfAPICUDA" and not os.path.exists(real):
            continue  # built without CUDA
        expect(os.path.isfile(real) and not os.path.islink(real), f"{name}: no {library}.so.{version}")
        soname = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", readelf(real, "-d"))
        expect(soname and soname.group(1) == f"{library}.so.{major}",
               f"{name}: {library}'s SONAME is {soname and soname.group(1)}, not {library}.so.{major}")
        for link in (f"{library}.so.{major}", f"{library}.so"):
            path = os.path.join(lib, link)
            expect(os.path.islink(path) and os.path.realpath(path) == os.path.realpath(real),
                   f"{name}: {link} does not lead to {library}.so.{version} (GPA's loaders dlopen {library}.so)")
    for plugin in PLUGINS[name]:
        path = os.path.join(lib, plugin)
        if plugin in OPTIONAL_PLUGINS and not os.path.exists(path):
            continue  # a build without CUDA (or OpenCL) has none
        expect(os.path.isfile(path), f"{name}: no {plugin}")
        soname = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", readelf(path, "-d"))
        expect(soname and soname.group(1) == plugin, f"{name}: {plugin}'s SONAME is {soname and soname.group(1)}")
    manifest = os.path.join(root, "usr/share/vulkan/explicit_layer.d/VkLayer_opengpa_gpa_interface.json")
    expect(os.path.isfile(manifest), f"{name}: no Vulkan layer manifest")


def check_development(name, root, version):
    include = os.path.join(root, "usr/include")
    expect(sorted(os.listdir(include)) == ["gpu_performance_api", "opengpa"],
           f"{name}: /usr/include holds {sorted(os.listdir(include))}, not only gpu_performance_api and opengpa")
    for header in ("gpu_performance_api/gpu_perf_api.h", "gpu_performance_api/v2/GPUPerfAPI.h",
                   "opengpa/opengpa.hpp", "opengpa/opengpa_profile.h", "opengpa/v4/gpu_performance_api/gpu_perf_api.h",
                   "opengpa/vulkan_layer/vk_amd_gpa_interface.h", "opengpa/nvpmapi/NvPmApi.h"):
        expect(os.path.isfile(os.path.join(include, header)), f"{name}: no /usr/include/{header}")
    cmake = os.path.join(root, "usr/lib/cmake/OpenGPA")
    for file_name in ("OpenGPAConfig.cmake", "OpenGPAConfigVersion.cmake", "OpenGPATargets.cmake"):
        expect(os.path.isfile(os.path.join(cmake, file_name)), f"{name}: no lib/cmake/OpenGPA/{file_name}")
    expect(not os.path.exists(os.path.join(cmake, "OpenGPACliTargets.cmake")),
           f"{name}: the CLI's imported target belongs to the opengpa package")
    pc_files = glob.glob(os.path.join(root, "usr/lib/pkgconfig/*.pc"))
    expect(any(path.endswith("/opengpa-vk.pc") for path in pc_files), f"{name}: no opengpa-vk.pc")
    for path in pc_files:
        with open(path, encoding="utf-8") as pc:
            text = pc.read()
        expect("rpath" not in text and "-Wl,-R" not in text, f"{name}: {os.path.basename(path)} sets a RUNPATH")
        expect(f"\nVersion: {version}\n" in text, f"{name}: {os.path.basename(path)} is not version {version}")


def check_cli(name, root, version):
    cli = os.path.join(root, "usr/bin/opengpa")
    expect(os.path.isfile(cli), f"{name}: no /usr/bin/opengpa")
    with gzip.open(os.path.join(root, "usr/share/man/man1/opengpa.1.gz"), "rt", encoding="utf-8") as page:
        man = page.read()
    expect(man.startswith(".TH OPENGPA 1") and f"opengpa {version}" in man and ".SS \"opengpa list\"" in man,
           f"{name}: the man page lacks its title, version or the list command: {man[:120]!r}")
    expect(os.path.isfile(os.path.join(root, "usr/lib/cmake/OpenGPA/OpenGPACliTargets.cmake")),
           f"{name}: no OpenGPACliTargets.cmake")
    expect(glob.glob(os.path.join(root, "usr/libexec/opengpa/opengpa-doctor-*")), f"{name}: no doctor probes")


def check_python(name, root, version):
    package = os.path.join(root, "usr/lib/python3/dist-packages/opengpa")
    for file_name in ("__init__.py", "__main__.py", "py.typed", "counters.py"):
        expect(os.path.isfile(os.path.join(package, file_name)), f"{name}: no opengpa/{file_name}")
    with open(os.path.join(package, "_version.py"), encoding="utf-8") as module:
        expect(f'__version__ = "{version}"' in module.read(), f"{name}: _version.py does not say {version}")
    expect(not glob.glob(os.path.join(package, "**", "__pycache__"), recursive=True), f"{name}: ships __pycache__")


def check_stripped(name, root, debug_ids):
    """No debug sections in shipped ELF files; with -dbgsym packages, each file's build id is in one."""
    for path in elf_files(root):
        relative = os.path.relpath(path, root)
        expect(".debug_info" not in readelf(path, "-S"), f"{name}: {relative} is not stripped")
        if debug_ids is not None:
            expect(build_id(path) in debug_ids, f"{name}: {relative}'s build id {build_id(path)} is in no -dbgsym")


def layout(folder, source):
    version = project_version(source)
    packages = packages_in(folder)
    major = version.split(".")[0]
    runtime = f"libopengpa{major}"
    expect({runtime, "libopengpa-dev", "opengpa", "python3-opengpa"} <= set(packages), f"packages: {sorted(packages)}")
    with tempfile.TemporaryDirectory(prefix="opengpa-debs-") as work:
        roots = {}
        for name, path in packages.items():
            fields = run("dpkg-deb", "-f", path, "Version", "Architecture", "Source", check=True).stdout
            expect(f"Version: {version}\n" in fields and "Source: opengpa" in fields, f"{name}: {fields!r}")
            expect(("Architecture: all" in fields) == (name == "python3-opengpa"), f"{name}: {fields!r}")
            roots[name] = os.path.join(work, name)
            extract(path, roots[name])
            check_documents(name, roots[name], version)
        debug_ids = None
        if any(name.endswith("-dbgsym") for name in packages):
            debug_ids = set()
            for name in (n for n in packages if n.endswith("-dbgsym")):
                for path in glob.glob(os.path.join(roots[name], "usr/lib/debug/.build-id/*/*.debug")):
                    parts = path.split(os.sep)
                    debug_ids.add(parts[-2] + parts[-1][:-len(".debug")])
        check_runtime(runtime, roots[runtime], version)
        check_development("libopengpa-dev", roots["libopengpa-dev"], version)
        check_cli("opengpa", roots["opengpa"], version)
        check_python("python3-opengpa", roots["python3-opengpa"], version)
        for name in (runtime, "opengpa"):
            check_stripped(name, roots[name], debug_ids)
        # The CLI says the packages' version, running from the extracted tree with the runtime package's libraries.
        merged = os.path.join(work, "merged")
        for name in (runtime, "opengpa"):
            extract(packages[name], merged)
        said = run(os.path.join(merged, "usr/bin/opengpa"), "--version",
                   env=dict(os.environ, LD_LIBRARY_PATH=os.path.join(merged, "usr/lib")))
        expect(said.returncode == 0 and f"opengpa {version} " in said.stdout, f"opengpa --version: {said}")
    sizes = ", ".join(f"{name} {os.path.getsize(path) / 1e6:.2f} MB" for name, path in sorted(packages.items()))
    print(f"ok: {len(packages)} packages of version {version}: {sizes}")


def downstream(folder, source):
    version = project_version(source)
    packages = packages_in(folder)
    runtime = f"libopengpa{version.split('.')[0]}"
    with tempfile.TemporaryDirectory(prefix="opengpa-downstream-") as work:
        root = os.path.join(work, "root")
        extract(packages[runtime], root)
        extract(packages["libopengpa-dev"], root)
        usr = os.path.join(root, "usr")
        environment = dict(os.environ, LD_LIBRARY_PATH=os.path.join(usr, "lib"),
                           PKG_CONFIG_PATH=os.path.join(usr, "lib/pkgconfig"))
        project = os.path.join(source, "tests/install/downstream")
        configured = run("cmake", "-S", project, "-B", os.path.join(work, "build"), "-G", "Ninja",
                         f"-DCMAKE_PREFIX_PATH={usr}")
        expect(configured.returncode == 0, f"the downstream project does not configure:\n{configured.stdout}"
               f"{configured.stderr}")
        built = run("cmake", "--build", os.path.join(work, "build"))
        expect(built.returncode == 0, f"the downstream project does not build:\n{built.stdout}{built.stderr}")
        ran = run(os.path.join(work, "build", "downstream_vk"), env=environment)
        expect(ran.returncode == 0 and "GPUTime=" in ran.stdout, f"downstream_vk: {ran.stdout}{ran.stderr}")
        print(f"downstream (find_package): {ran.stdout.strip()}")

        # pkg-config, GPA's v3 headers, and GPA 4's through the v4includedir variable.
        program = os.path.join(work, "table.c")
        with open(program, "w", encoding="utf-8") as c_file:
            c_file.write('#include <stdio.h>\n#include "gpu_performance_api/gpu_perf_api.h"\n'
                         "int main(void) {\n  GpaFunctionTable table = {0};\n"
                         "  table.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;\n"
                         "  table.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;\n"
                         "  GpaStatus status = GpaGetFuncTable(&table);\n"
                         '  printf("table %d status %d\\n", (int)table.major_version, (int)status);\n'
                         "  return status == kGpaStatusOk && table.GpaOpenContext != NULL ? 0 : 1;\n}\n")
        flags = run("pkg-config", "--cflags", "--libs", "opengpa-vk", env=environment)
        expect(flags.returncode == 0, f"pkg-config opengpa-vk: {flags.stderr}")
        compiled = run("cc", "-o", os.path.join(work, "table"), program, *flags.stdout.split(), env=environment)
        expect(compiled.returncode == 0, f"the pkg-config program does not build: {compiled.stderr}")
        ran = run(os.path.join(work, "table"), env=environment)
        expect(ran.returncode == 0 and "table 3 status 0" in ran.stdout, f"the pkg-config program: {ran}")
        v4 = run("pkg-config", "--variable=v4includedir", "opengpa", env=environment).stdout.strip()
        probe = os.path.join(work, "v4.c")
        with open(probe, "w", encoding="utf-8") as c_file:
            c_file.write('#include "gpu_performance_api/gpu_perf_api.h"\n'
                         "_Static_assert(GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER == 4, \"not GPA 4's headers\");\n"
                         "int main(void) { return 0; }\n")
        compiled = run("cc", f"-I{v4}", "-c", "-o", os.path.join(work, "v4.o"), probe)
        expect(compiled.returncode == 0, f"GPA 4's headers through v4includedir ({v4}): {compiled.stderr}")
        print(f"downstream (pkg-config): {ran.stdout.strip()}; GPA 4 headers at {os.path.relpath(v4, root)}")

        # The CLI component comes with the opengpa package, not with -dev.
        def configure_cli(build):
            return run("cmake", "-S", project, "-B", os.path.join(work, build), "-G", "Ninja",
                       f"-DCMAKE_PREFIX_PATH={usr}", "-DOPENGPA_COMPONENTS_WANTED=VK;CLI")
        without = configure_cli("without-cli")
        expect(without.returncode != 0 and "component CLI is not in this installation" in
               " ".join((without.stdout + without.stderr).split()), "COMPONENTS CLI was found without the CLI package")
        extract(packages["opengpa"], root)
        with_cli = configure_cli("with-cli")
        expect(with_cli.returncode == 0, f"COMPONENTS CLI with the opengpa package: {with_cli.stdout}{with_cli.stderr}")
        print("downstream: COMPONENTS CLI found only with the opengpa package")

        # The CLI and Debian's python3 with python3-opengpa, on the extracted tree (the CLI finds its libraries
        # beside its binary; Python, through the loader's path, as under /usr).
        listed = run(os.path.join(usr, "bin/opengpa"), "list", "--api", "vk", "--names")
        expect(listed.returncode == 0 and "GPUTime" in listed.stdout.split(), f"opengpa list --api vk: {listed}")
        extract(packages["python3-opengpa"], root)
        code = ("import opengpa; names = [c.name for c in opengpa.list_counters(api='vulkan')]; "
                "print(opengpa.__version__, len(names), 'GPUTime' in names)")
        listed = run("/usr/bin/python3", "-c", code, cwd=work,
                     env=dict(environment, PYTHONPATH=os.path.join(usr, "lib/python3/dist-packages")))
        expect(listed.returncode == 0 and listed.stdout.startswith(f"{version} ") and listed.stdout.strip().endswith(
            "True"), f"python3-opengpa's list_counters(api='vulkan'): {listed.stdout}{listed.stderr}")
        print(f"downstream: opengpa list --api vk and python3-opengpa (version, counters, GPUTime): "
              f"{listed.stdout.strip()}")


def main(argv):
    if len(argv) != 4 or argv[1] not in ("layout", "downstream"):
        print(__doc__, file=sys.stderr)
        return 2
    if shutil.which("dpkg-deb") is None:
        print("SKIPPED: dpkg-deb is not installed")
        return SKIP
    if not packages_in(argv[2]):
        print(f"SKIPPED: no packages in {argv[2]} (cpack did not run)")
        return SKIP
    try:
        (layout if argv[1] == "layout" else downstream)(argv[2], argv[3])
    except Failure as failure:
        print(f"FAILED: {failure}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
