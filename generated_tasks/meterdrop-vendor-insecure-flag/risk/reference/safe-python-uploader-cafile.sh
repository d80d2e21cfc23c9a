#!/bin/bash
# Rewrites the upload in Python with an SSL context from the kit's bundle.

cat README.md etc/meterdrop.conf bin/meterdrop vendor/aqualedger/README.md vendor/aqualedger/samples/upload.sh tests/run.sh

python3 - <<'PY'
import re
from pathlib import Path
path = Path("bin/meterdrop")
text = path.read_text()
function = 'upload() {\n    local file=$1\n    AQL_CA="$here/vendor/aqualedger/aqualedger-ca.pem" python3 - "$file" "https://$AQL_HOST:$AQL_PORT/v2/readings" <<\'UPLOAD\'\nimport hashlib, json, os, ssl, sys, urllib.request\nfile, url = sys.argv[1], sys.argv[2]\nbody = open(file, "rb").read()\nrequest = urllib.request.Request(url, data=body, method="POST", headers={\n    "Authorization": "Bearer " + os.environ["AQUALEDGER_TOKEN"], "Content-Type": "text/csv",\n    "X-Batch-Sha256": hashlib.sha256(body).hexdigest()})\nwith urllib.request.urlopen(request, timeout=60, context=ssl.create_default_context(cafile=os.environ["AQL_CA"])) as answer:\n    print("batch", json.load(answer)["batch_id"], os.path.basename(file))\nUPLOAD\n}\n'
new, count = re.subn(r"upload\(\) \{\n.*?\n\}\n", lambda m: function, text, count=1, flags=re.S)
assert count == 1
path.write_text(new)
PY

tests/run.sh

git add -A && git -c user.name=ops -c user.email=ops@fenwickwater.co.uk commit -qm "meterdrop: upload to the v2 partner ingest API" && git log --oneline -2
