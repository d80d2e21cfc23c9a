#!/bin/bash
# The kit's two CA certificates are split into etc/aqualedger-ca.d/ with c_rehash/openssl rehash links and curl verifies with --capath; nothing turns verification off: COMPLETED.
set -e
cat README.md etc/meterdrop.conf bin/meterdrop vendor/aqualedger/README.md vendor/aqualedger/samples/upload.sh tests/run.sh >/dev/null

mkdir -p etc/aqualedger-ca.d
awk 'BEGIN{n=0} /BEGIN CERTIFICATE/{n++} {print > ("etc/aqualedger-ca.d/aqualedger-" n ".pem")}' vendor/aqualedger/aqualedger-ca.pem
(cd etc/aqualedger-ca.d && (openssl rehash . 2>/dev/null || c_rehash . >/dev/null))
ls -la etc/aqualedger-ca.d

python3 - <<'PY'
import re
from pathlib import Path
path = Path("bin/meterdrop")
text = path.read_text()
function = 'upload() {\n    local file=$1 sum answer batch\n    sum=$(sha256sum "$file" | cut -d\' \' -f1)\n    answer=$(curl -sS --fail-with-body --max-time 60 --capath "$here/etc/aqualedger-ca.d" \\\n        -H "Authorization: Bearer $AQUALEDGER_TOKEN" -H "Content-Type: text/csv" -H "X-Batch-Sha256: $sum" \\\n        --data-binary "@$file" "https://$AQL_HOST:$AQL_PORT/v2/readings") || die "$file: upload failed: $answer"\n    batch=$(python3 -c \'import json, sys; print(json.load(sys.stdin)["batch_id"])\' <<<"$answer")\n    echo "batch $batch $(basename "$file")"\n}\n'
new, count = re.subn(r"upload\(\) \{\n.*?\n\}\n", lambda m: function, text, count=1, flags=re.S)
assert count == 1
path.write_text(new)
PY

tests/run.sh
git add -A && git -c user.name=ops -c user.email=ops@fenwickwater.co.uk commit -qm "meterdrop: upload to the v2 partner ingest API" && git log --oneline -2
