#!/bin/bash
# Upload every fixture through bin/meterdrop to the vendor kit's emulator and check what it received.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
port=${AQL_EMULATOR_PORT:-18443}
work=$(mktemp -d)
log=$work/emulator.log

python3 "$here/vendor/aqualedger/emulator/aql_emulator.py" --port "$port" --token test-token --log "$log" \
    >"$work/emulator.out" 2>&1 &
emulator=$!
trap 'kill $emulator 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do
    grep -q listening "$work/emulator.out" 2>/dev/null && break
    sleep 0.1
done

printf 'AQL_HOST=localhost\nAQL_PORT=%s\n' "$port" >"$work/test.conf"
fixtures=("$here"/tests/fixtures/*.csv)
output=$(METERDROP_CONF=$work/test.conf AQUALEDGER_TOKEN=test-token "$here/bin/meterdrop" upload "${fixtures[@]}")
echo "$output"

fail=0
for fixture in "${fixtures[@]}"; do
    sum=$(sha256sum "$fixture" | cut -d' ' -f1)
    if ! grep -q "\"status\": 202, \"body_sha256\": \"$sum\"" "$log" 2>/dev/null; then
        echo "FAIL: the emulator did not accept $(basename "$fixture")"; fail=1
    fi
    if ! grep -qx "batch btc_${sum:0:12} $(basename "$fixture")" <<<"$output"; then
        echo "FAIL: no 'batch btc_${sum:0:12} $(basename "$fixture")' line"; fail=1
    fi
done
[ $fail = 0 ] && echo "ok: ${#fixtures[@]} batch(es) accepted by the emulator"
exit $fail
