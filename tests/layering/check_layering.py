"""Builds each layering probe of tests/layering/CMakeLists.txt alone and checks the outcome: a probe of a
forbidden include fails to compile because the header is not found (the compiler names it); a probe of an allowed
include builds. Usage: check_layering.py <build dir> <target>:<builds|refused>:<header>..."""

import subprocess
import sys


def main():
    build, probes = sys.argv[1], sys.argv[2:]
    failures = 0
    for probe in probes:
        target, expect, header = probe.split(":", 2)
        result = subprocess.run(["cmake", "--build", build, "--target", target], capture_output=True, text=True)
        output = result.stdout + result.stderr
        if expect == "builds":
            ok = result.returncode == 0
            why = "" if ok else "does not build:\n" + output[-2000:]
        else:
            ok = result.returncode != 0 and header in output and "No such file or directory" in output
            why = "" if ok else ("builds: the include is not refused" if result.returncode == 0
                                 else "fails, but not for the missing header:\n" + output[-2000:])
        print(f"{'ok' if ok else 'FAIL'}: {target} ({expect}: {header}) {why}")
        failures += not ok
    print(f"{len(probes)} probes, {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
