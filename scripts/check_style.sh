#!/usr/bin/env bash
# The style the build keeps (scripts/test.sh runs this after the tests; docs/style.md says why each check):
#   1. clang-format --dry-run -Werror (.clang-format) over the C, C++ and CUDA files of src/ tools/ samples/ tests/;
#   2. clang-tidy (.clang-tidy, its WarningsAsErrors) over the .cc files of src/ and tools/ that the build compiles,
#      through the build's compile_commands.json: in parallel (one job per core), and cached: a file whose
#      compile command, text, headers and checks are unchanged since it last passed is not checked again;
#   3. flake8 (.flake8) over the Python files.
# Usage: scripts/check_style.sh [build-dir]   (default ${OPENGPA_BUILD_DIR:-build}, configured and built).
# OPENGPA_STYLE=0 skips everything (quick local runs); OPENGPA_STYLE=format,flake8 runs only those checks.
# The clang-tidy cache lives in ${OPENGPA_TIDY_CACHE:-~/.cache/opengpa/clang-tidy} (outside the tree, as ccache's
# does, so fresh clones share it); OPENGPA_TIDY_CACHE=off checks every file.
# Every check runs even when an earlier one failed; the exit status says whether all passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-${OPENGPA_BUILD_DIR:-$root/build}}" && pwd)
selected=${OPENGPA_STYLE:-format,tidy,flake8}
[[ $selected == 0 ]] && { echo "check_style: skipped (OPENGPA_STYLE=0)" >&2; exit 0; }
[[ $selected == 1 ]] && selected=format,tidy,flake8
jobs=$(nproc)
cd "$root"
failed=()

step() {  # step NAME COMMAND...: runs one check if selected, timing it and remembering a failure
  local name=$1 start=$SECONDS
  shift
  [[ ,$selected, == *",$name,"* ]] || return 0
  echo "== style: $name" >&2
  if "$@"; then
    echo "== style: $name passed ($((SECONDS - start)) s)" >&2
  else
    echo "== style: $name FAILED ($((SECONDS - start)) s)" >&2
    failed+=("$name")
  fi
}

tool() {  # the pinned tool, or its unversioned name
  command -v "$1-14" || command -v "$1"
}

check_format() {
  local format
  format=$(tool clang-format) || { echo "clang-format is not installed (scripts/install_deps.sh)" >&2; return 1; }
  git ls-files -z 'src/*' 'tools/*' 'samples/*' 'tests/*' |
    grep -zE '\.(h|hpp|c|cc|cpp|cu|cuh)$' |
    xargs -0 -P "$jobs" -n 16 "$format" --dry-run -Werror --style=file
}

# The .cc files of src/ and tools/ in the compile database (what this build compiles), each with its cache key: the
# checks, the tool's version, the file's compile command and the text of the file and of every header it includes
# (ninja's dependency log), paths relative to the root so that worktrees and clones share entries. Prints
# "<key> <file>" for the files not yet known to pass.
tidy_misses() {
  python3 - "$build" "$root" "$cache" "$("$tidy" --version)" <<'PY'
import hashlib, json, os, subprocess, sys
build, root, cache, version = sys.argv[1:5]
checks = open(os.path.join(root, ".clang-tidy"), "rb").read()
deps, current = {}, None
for line in subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True).stdout.splitlines():
    if line and not line.startswith(" "):
        current = line.split(":")[0]
        deps[current] = []
    elif line.strip() and current is not None:
        deps[current].append(line.strip())
def text(path):
    path = path if os.path.isabs(path) else os.path.join(build, path)
    try:
        return open(path, "rb").read()
    except OSError:
        return b""
seen = set()
for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
    path = os.path.relpath(os.path.join(entry["directory"], entry["file"]), root)
    if not (path.startswith(("src/", "tools/")) and path.endswith(".cc")) or path in seen:
        continue
    seen.add(path)
    key = hashlib.sha256(version.encode() + checks)
    key.update(entry["command"].replace(build, "BUILD").replace(root, ".").encode())
    key.update(text(os.path.join(root, path)))
    for header in sorted(deps.get(entry.get("output", ""), [])):
        key.update(header.replace(build, "BUILD").replace(root, ".").encode() + text(header))
    digest = key.hexdigest()[:40]
    if cache == "off" or not os.path.exists(os.path.join(cache, digest)):
        print(digest, path)
print(len(seen), "files", file=sys.stderr)
PY
}

# One file: clang-tidy decides, and a pass is remembered under its key.
tidy_one() {
  local key=$1 file=$2 output
  if output=$("$tidy" -p "$build" --quiet "$file" 2>&1); then
    [[ $cache != off ]] && touch "$cache/$key"
    return 0
  fi
  printf '%s\n' "$output" | grep -v '^[0-9]* warnings\? generated' >&2
  return 1
}

check_tidy() {
  tidy=$(tool clang-tidy) || { echo "clang-tidy is not installed (scripts/install_deps.sh)" >&2; return 1; }
  [[ -f $build/compile_commands.json ]] || { echo "$build/compile_commands.json is missing: configure first" >&2; return 1; }
  cache=${OPENGPA_TIDY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opengpa/clang-tidy}
  [[ $cache != off ]] && mkdir -p "$cache"
  export -f tidy_one
  export tidy cache build
  local misses
  misses=$(tidy_misses) || return 1
  echo "clang-tidy: $(grep -c . <<<"$misses") to check (the others passed before, cache $cache), $jobs jobs" >&2
  [[ -z $misses ]] && return 0
  # xargs exits non-zero when any file fails; every file is still checked.
  xargs -P "$jobs" -n 2 bash -c 'tidy_one "$0" "$1"' <<<"$misses"
}

check_flake8() {
  command -v flake8 >/dev/null || { echo "flake8 is not installed (scripts/install_deps.sh)" >&2; return 1; }
  git ls-files -z '*.py' | xargs -0 flake8
}

step format check_format
step tidy check_tidy
step flake8 check_flake8
if ((${#failed[@]})); then
  echo "check_style: FAILED: ${failed[*]} (OPENGPA_STYLE=0 skips the style checks in a local run)" >&2
  exit 1
fi
echo "check_style: all passed" >&2
