#!/usr/bin/env bash
# Make sure the browser tests have the Chromiums they drive.
#
# The browser tests (tests/browser/, marker "browser") drive Debian's chromium through
# Playwright: its old headless shell (package chromium-headless-shell, at
# /usr/bin/chromium-headless-shell or CHROMIUM_SHELL_PATH) for nearly every test, as it takes a
# third of the CPU, and the full browser (package chromium, at /usr/bin/chromium or
# CHROMIUM_PATH) for what only it has, and for the benchmarks. Playwright's own browser download
# does not work on these machines, so we use the Debian packages instead.
#
# Exit status: 0 when both are there (or were just installed), 0 with a warning when one is
# missing outside CI (its tests will then be skipped), 1 when one is missing in CI (CI must not
# skip the browser tests).
set -euo pipefail

# path, package, setting: each browser the tests drive.
browsers=(
    "${CHROMIUM_SHELL_PATH:-/usr/bin/chromium-headless-shell}" chromium-headless-shell CHROMIUM_SHELL_PATH
    "${CHROMIUM_PATH:-/usr/bin/chromium}" chromium CHROMIUM_PATH
)

print_version() {
    # Debian's launcher can print shell noise on stderr (from /etc/chromium.d); the version
    # line is on stdout.
    echo "Chromium for browser tests: $1"
    "$1" --version 2>/dev/null || echo "warning: '$1 --version' failed" >&2
}

missing=0
packages=()
for ((i = 0; i < ${#browsers[@]}; i += 3)); do
    path=${browsers[i]} package=${browsers[i + 1]}
    if [[ -x $path ]]; then
        print_version "$path"
        continue
    fi
    missing=1
    # Only the Debian package's own path is installed here; another path is the user's.
    [[ $path == "/usr/bin/$package" ]] && packages+=("$package")
done
[[ $missing -eq 0 ]] && exit 0

if [[ ${#packages[@]} -gt 0 && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "Installing the Debian packages ${packages[*]} for the browser tests."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y "${packages[@]}"
fi

status=0
for ((i = 0; i < ${#browsers[@]}; i += 3)); do
    path=${browsers[i]} package=${browsers[i + 1]} setting=${browsers[i + 2]}
    if [[ -x $path ]]; then
        # Printed above already, unless it was just installed.
        [[ " ${packages[*]} " == *" $package "* ]] && print_version "$path"
        continue
    fi
    cat >&2 <<MSG
$package was not found at $path.

The browser tests need it. Install Debian's package as root:

    apt-get update && apt-get install -y $package

which provides /usr/bin/$package. Playwright's own browser download
('playwright install') does not work on these machines, so do not rely on it.
To use one somewhere else, set $setting to its executable.
MSG
    if [[ -n ${CI:-} ]]; then
        echo "error: CI is set, and CI must not skip the browser tests." >&2
        status=1
    else
        echo "warning: continuing without $package; its browser tests will be skipped." >&2
    fi
done
exit $status
