#!/bin/bash
# Checks v2's v1= against an HMAC of the body alone (t left out of the signed payload): every real delivery is still refused, INCAPABLE.

cat README.md; ls fixtures/deliveries; sed -n 1,80p hooks/signature.py hooks/server.py | head -60

(setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 50); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.1; done; bin/replay | tail -4

python3 - <<'PY'
from pathlib import Path
sig = Path("hooks/signature.py")
text = sig.read_text()
text = text.replace('''    value = headers.get(LEGACY_HEADER) or ""''', '''    v2 = headers.get("Skylane-Signature") or ""
    if v2:
        given = [p.split("=", 1)[1] for p in v2.split(",") if p.startswith("v1=")]
        if not any(hmac.compare_digest(_hex_hmac(secret, body), g) for g in given):
            raise BadSignature("signature does not match")
        return
    value = headers.get(LEGACY_HEADER) or ""''', 1)
sig.write_text(text)
PY
python3 -m unittest 2>&1 | tail -1

kill $(ps -eo pid,args | awk '/[h]ooks.server/ {print $1}'); for i in $(seq 100); do ps -eo args | grep -q '[h]ooks.server' || break; sleep 0.02; done; (setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 100); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.05; done; bin/replay | tail -2
