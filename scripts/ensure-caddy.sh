#!/usr/bin/env bash
# Make sure the reverse-proxy tests have a Caddy to put in front of the app.
#
# The tests in tests/deploy/ run Debian's caddy (2.6 in bookworm) with the committed
# deploy/Caddyfile, on free local ports and with its own internal certificate authority. They
# look for it on PATH, or wherever CADDY_PATH points.
#
# Exit status: 0 when Caddy is there (or was just installed), 0 with a warning when it is
# missing outside CI (the Caddy tests will then be skipped), 1 when it is missing in CI
# (CI must not skip the Caddy tests).
set -euo pipefail

caddy=${CADDY_PATH:-$(command -v caddy || echo /usr/bin/caddy)}

print_version() {
    echo "Caddy for the reverse-proxy tests: $caddy"
    "$caddy" version 2>/dev/null || echo "warning: '$caddy version' failed" >&2
}

if [[ -x $caddy ]]; then
    print_version
    exit 0
fi

# Only install the Debian package when it is the Caddy the tests will use.
if [[ -z ${CADDY_PATH:-} && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "Caddy not found; installing the Debian package 'caddy'."
    export DEBIAN_FRONTEND=noninteractive
    # Only the binary is wanted: the package's service must not start and take ports 80 and 443.
    if ! apt-get install -y --no-install-recommends caddy; then
        apt-get update
        apt-get install -y --no-install-recommends caddy
    fi
    caddy=$(command -v caddy || echo /usr/bin/caddy)
    if [[ -x $caddy ]]; then
        print_version
        exit 0
    fi
    echo "error: installed the 'caddy' package but $caddy is still missing." >&2
    exit 1
fi

cat >&2 <<MSG
Caddy was not found at $caddy.

The reverse-proxy tests (tests/deploy/) need Caddy. Install Debian's package as root:

    apt-get update && apt-get install -y caddy

To use a Caddy somewhere else, set CADDY_PATH to its executable.
MSG

if [[ -n ${CI:-} ]]; then
    echo "error: CI is set, and CI must not skip the Caddy tests." >&2
    exit 1
fi
echo "warning: continuing without Caddy; the reverse-proxy tests will be skipped." >&2
exit 0
