#!/usr/bin/env bash
# Make sure a Redis answers on 127.0.0.1:6379 for the shared rate limit tests.
#
# tests/data/test_rate_limits.py runs two `scorer serve` processes that count sign-in tries in
# one Redis (RATELIMIT_STORAGE_URI). This starts Debian's redis-server when nothing answers,
# installing the package first when it is missing (as root, with apt-get).
#
# Exit status: 0 when Redis answers (or was just started), 0 with a warning when it cannot be
# started outside CI (those tests will then be skipped), 1 when it cannot be started in CI (CI
# must not skip them).
set -euo pipefail

host=127.0.0.1
port=6379

answers() {
    command -v redis-cli >/dev/null && [[ $(redis-cli -h "$host" -p "$port" ping 2>/dev/null) == PONG ]]
}

give_up() {
    echo "$1" >&2
    if [[ -n ${CI:-} ]]; then
        echo "error: CI is set, and CI must not skip the shared rate limit tests." >&2
        exit 1
    fi
    echo "warning: continuing without Redis; the shared rate limit tests will be skipped." >&2
    exit 0
}

if answers; then
    echo "Redis for rate limit tests: answering on $host:$port."
    exit 0
fi

if ! command -v redis-server >/dev/null; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        echo "redis-server not found; installing the Debian package 'redis-server'."
        export DEBIAN_FRONTEND=noninteractive
        apt-get update
        apt-get install -y redis-server
    else
        give_up "Redis is not answering on $host:$port and redis-server is not installed.
Install Debian's package as root:

    apt-get update && apt-get install -y redis-server"
    fi
fi

echo "Starting redis-server on $host:$port."
redis-server --daemonize yes --port "$port" --bind "$host"
for _ in $(seq 30); do
    if answers; then
        echo "Redis for rate limit tests: answering on $host:$port."
        exit 0
    fi
    sleep 0.2
done
give_up "Started redis-server, but nothing answers on $host:$port."
