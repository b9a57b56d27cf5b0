#!/bin/sh
# Prints a folder in memory (tmpfs) for the tests' scratch files, or nothing when there is no
# tmpfs with room for them: a container's /dev/shm is often 64 MB, and the suite writes hundreds.
set -eu
NEEDED_KB=$((2 * 1024 * 1024))
for base in "${XDG_RUNTIME_DIR:-}" /dev/shm; do
    [ -n "$base" ] && [ -d "$base" ] && [ -w "$base" ] || continue
    [ "$(stat -f -c %T "$base")" = tmpfs ] || continue
    free_kb=$(df -Pk "$base" | awk 'NR == 2 { print $4 }')
    [ "$free_kb" -ge "$NEEDED_KB" ] || continue
    folder="$base/scorer-tests-$(id -u)"
    mkdir -p "$folder"
    echo "$folder"
    exit 0
done
