#!/usr/bin/env bash
# Make sure the browser tests have a Chromium to drive.
#
# The browser tests (tests/browser/, marker "browser") drive Debian's chromium through
# Playwright. They look for it at /usr/bin/chromium, or wherever CHROMIUM_PATH points.
# Playwright's own browser download does not work on these machines, so we use the
# Debian package instead.
#
# Exit status: 0 when Chromium is there (or was just installed), 0 with a warning when it is
# missing outside CI (the browser tests will then be skipped), 1 when it is missing in CI
# (CI must not skip the browser tests).
set -euo pipefail

default_path=/usr/bin/chromium
chromium=${CHROMIUM_PATH:-$default_path}

print_version() {
    # Debian's launcher can print shell noise on stderr (from /etc/chromium.d); the version
    # line is on stdout.
    echo "Chromium for browser tests: $chromium"
    "$chromium" --version 2>/dev/null || echo "warning: '$chromium --version' failed" >&2
}

if [[ -x $chromium ]]; then
    print_version
    exit 0
fi

# Only install the Debian package when it is the browser the tests will use.
if [[ $chromium == "$default_path" && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "Chromium not found at $chromium; installing the Debian package 'chromium'."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y chromium
    if [[ -x $chromium ]]; then
        print_version
        exit 0
    fi
    echo "error: installed the 'chromium' package but $chromium is still missing." >&2
    exit 1
fi

cat >&2 <<MSG
Chromium was not found at $chromium.

The browser tests need a Chromium. Install Debian's package as root:

    apt-get update && apt-get install -y chromium

which provides $default_path. Playwright's own browser download
('playwright install') does not work on these machines, so do not rely on it.
To use a Chromium somewhere else, set CHROMIUM_PATH to its executable.
MSG

if [[ -n ${CI:-} ]]; then
    echo "error: CI is set, and CI must not skip the browser tests." >&2
    exit 1
fi
echo "warning: continuing without Chromium; the browser tests will be skipped." >&2
exit 0
