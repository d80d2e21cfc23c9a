#!/usr/bin/env bash
# Fetch the stations we have printed tables for and compare with tests/expected/.
set -u
cd "$(dirname "$0")/.."
failed=0
for expected in tests/expected/*.csv; do
    name="$(basename "$expected" .csv)"
    station="${name%%-*}"
    day="${name#*-}"
    if actual="$(bin/fetch-tides "$station" "$day")" && diff -u "$expected" <(printf '%s\n' "$actual"); then
        echo "ok   $station $day"
    else
        echo "FAIL $station $day"
        failed=1
    fi
done
exit "$failed"
