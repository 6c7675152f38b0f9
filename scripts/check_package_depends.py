#!/usr/bin/env python3
"""Checks that each Debian package declares, in Depends, every library its ELF files need.

usage: check_package_depends.py PACKAGE.deb|FOLDER...   (a folder: its *.deb files)

For every ELF file of every package (readelf -d), each NEEDED library must be found:
  - in the package itself, or in another of the given packages that it depends on (directly or through them);
  - else on this machine (ldconfig -p), owned by a Debian package (dpkg -S) that the package's Depends names
    (any alternative of an `a | b` group counts).
Recommends and Suggests do not count: what a file cannot load without must be a dependency. This stands in for
`dpkg -i` on a fresh system, which this machine cannot do: with only the declared dependencies installed, every
NEEDED entry resolves. Prints one line per package and every missing dependency; exit 1 when any is missing, 2 when
the tools (dpkg-deb, readelf, ldconfig, dpkg) are missing.
"""

import functools
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

NEEDED = re.compile(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]")


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True, check=True).stdout.strip()


def depends_names(depends):
    """Every package name in a Depends field, alternatives included, versions and architectures dropped."""
    names = set()
    for group in filter(None, (part.strip() for part in depends.split(","))):
        for alternative in group.split("|"):
            names.add(re.split(r"[\s(:]", alternative.strip(), maxsplit=1)[0])
    return names


def elf_files(root):
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    yield path


def needed(path):
    output = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    return NEEDED.findall(output)


def system_libraries():
    """{soname: [paths]} from the loader's cache (x86-64 entries first, as the loader would pick them)."""
    found = {}
    output = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    for line in output.splitlines()[1:]:
        match = re.match(r"\s*(\S+) \(([^)]*)\) => (\S+)", line)
        if match:
            found.setdefault(match.group(1), []).append(match.group(3))
    return found


@functools.lru_cache(maxsize=None)
def owner(path):
    """The Debian package that owns a library file (the /usr-merged and unmerged spellings are both tried)."""
    candidates = {path, os.path.realpath(path)}
    for candidate in list(candidates):
        if candidate.startswith("/usr/lib/"):
            candidates.add(candidate[len("/usr"):])
        elif candidate.startswith("/lib/"):
            candidates.add("/usr" + candidate)
    for candidate in sorted(candidates):
        done = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout.split(":", 1)[0].strip()
    return None


def main(arguments):
    debs = []
    for argument in arguments:
        debs += sorted(glob.glob(os.path.join(argument, "*.deb"))) if os.path.isdir(argument) else [argument]
    if not debs:
        print(__doc__, file=sys.stderr)
        return 2
    for tool in ("dpkg-deb", "readelf", "ldconfig", "dpkg"):
        if shutil.which(tool) is None:
            print(f"check_package_depends: {tool} is not installed", file=sys.stderr)
            return 2
    system = system_libraries()
    packages = {}
    with tempfile.TemporaryDirectory(prefix="opengpa-depends-") as work:
        for deb in debs:
            name = field(deb, "Package")
            root = os.path.join(work, name)
            subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
            provided = {os.path.basename(path) for path in _all_files(root)}
            packages[name] = {"root": root, "depends": depends_names(field(deb, "Depends")), "provides": provided}
        failures = 0
        for name, package in sorted(packages.items()):
            reachable = _reachable(name, packages)
            checked = missing = 0
            for path in elf_files(package["root"]):
                relative = os.path.relpath(path, package["root"])
                for library in needed(path):
                    checked += 1
                    problem = _unmet(library, name, reachable, packages, system)
                    if problem:
                        missing += 1
                        print(f"MISSING {name}: {relative} needs {library}: {problem}")
            print(f"{name}: {checked} NEEDED entries, {missing} not covered by Depends "
                  f"({', '.join(sorted(package['depends'])) or 'no Depends'})")
            failures += missing
    return 1 if failures else 0


def _all_files(root):
    for folder, _, files in os.walk(root):
        for name in files:
            yield os.path.join(folder, name)


def _reachable(name, packages):
    """The given packages that `name` depends on, transitively, itself included."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen or current not in packages:
            continue
        seen.add(current)
        todo += sorted(packages[current]["depends"])
    return seen


def _unmet(library, name, reachable, packages, system):
    for other in reachable:
        if library in packages[other]["provides"]:
            return None
    for other, package in packages.items():
        if library in package["provides"]:
            return f"it is in {other}, which {name} does not depend on"
    paths = system.get(library)
    if not paths:
        return "no package of these nor of this machine provides it"
    owners = {owner(path) for path in paths} - {None}
    if not owners:
        return f"{paths[0]} belongs to no Debian package"
    if owners & packages[name]["depends"]:
        return None
    return f"provided by {', '.join(sorted(owners))}, which Depends does not name"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
