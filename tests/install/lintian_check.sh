#!/usr/bin/env bash
# lintian over the Debian packages in a folder (tests/install/CMakeLists.txt): errors and warnings both fail; the
# findings OpenGPA justifies are overridden in packaging/debian/*.lintian-overrides (docs/packaging.md says why).
# Exit 77 (skipped) when lintian or the packages are missing.
set -euo pipefail
folder=$1
command -v lintian >/dev/null || { echo "SKIPPED: lintian is not installed (apt-get install lintian)"; exit 77; }
mapfile -t packages < <(find "$folder" -maxdepth 1 \( -name "*.deb" -o -name "*.ddeb" \) 2>/dev/null | sort)
((${#packages[@]})) || { echo "SKIPPED: no packages in $folder"; exit 77; }
# --show-overrides lists the overridden findings (O:, with their justification) too; the verdict is the E: and W:
# lines (lintian's own --fail-on would count the overridden ones as well).
findings=$(lintian --tag-display-limit 0 --show-overrides "${packages[@]}" 2>&1) ||
  { echo "$findings"; echo "FAILED: lintian did not run"; exit 1; }
echo "$findings" | grep -v "running with root privileges" || true
errors=$(grep -c '^E:' <<<"$findings" || true)
warnings=$(grep -c '^W:' <<<"$findings" || true)
echo "lintian over ${#packages[@]} packages: $errors errors, $warnings warnings, $(grep -c '^O:' <<<"$findings" || true) overridden"
((errors == 0 && warnings == 0))
