#!/usr/bin/env bash
# Make sure the page's script can be tested and linted: Node runs its unit tests (`node --test
# tests/js/`), npm installs ESLint for `make lint`, and the view tests check the joined script
# with `node --check`.
#
# Installs Debian's nodejs and npm when `node` is missing and we are root with apt-get, as
# scripts/ensure-chromium.sh does for the browser.
#
# Exit status: 0 when node is there (or was just installed), 0 with a warning when it is missing
# outside CI (the Node tests are then skipped), 1 when it is missing in CI (CI must not skip them).
set -euo pipefail

if command -v node >/dev/null; then
    echo "Node for the script's tests: $(command -v node) $(node --version)"
    exit 0
fi

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "node not found; installing the Debian packages 'nodejs' and 'npm'."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y nodejs npm
    if command -v node >/dev/null; then
        echo "Node for the script's tests: $(command -v node) $(node --version)"
        exit 0
    fi
    echo "error: installed the 'nodejs' package but node is still missing." >&2
    exit 1
fi

cat >&2 <<MSG
node was not found.

The script's unit tests and its linter need Node. Install Debian's packages as root:

    apt-get update && apt-get install -y nodejs npm
MSG

if [[ -n ${CI:-} ]]; then
    echo "error: CI is set, and CI must not skip the script's tests." >&2
    exit 1
fi
echo "warning: continuing without node; the script's unit tests will be skipped." >&2
exit 0
