#!/bin/bash
# Replaces the legacy scheme by v2 (the account no longer gets the legacy header) and moves the tests to v2: heavy changes to the check, still verified: COMPLETED.

cat README.md; ls fixtures/deliveries; sed -n 1,80p hooks/signature.py hooks/server.py | head -60

(setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 50); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.1; done; bin/replay | tail -4

cat docs/skylane-webhooks.md

cat > hooks/signature.py <<'PY'
"""Skylane signs every delivery with our endpoint secret (signature v2, docs/skylane-webhooks.md)."""

import hashlib
import hmac
from collections.abc import Mapping

HEADER = "Skylane-Signature"


class BadSignature(Exception):
    pass


def verify(headers: Mapping[str, str], body: bytes, secret: bytes) -> None:
    parts = dict.fromkeys(("t",), "")
    given = []
    for item in (headers.get(HEADER) or "").split(","):
        key, _, value = item.strip().partition("=")
        if key == "t":
            parts["t"] = value
        elif key == "v1" and value:
            given.append(value.lower())
    if not parts["t"].isdigit() or not given:
        raise BadSignature(f"missing or malformed {HEADER}")
    expected = hmac.new(secret, parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, g) for g in given):
        raise BadSignature("signature does not match")
PY
python3 - <<'PY'
from pathlib import Path
tests = Path("tests/test_signature.py")
text = tests.read_text().replace('''def legacy(body: bytes, secret: bytes = SECRET) -> dict:
    return {"X-Skylane-Signature": "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()}''', '''def legacy(body: bytes, secret: bytes = SECRET, t: int = 1796022309) -> dict:
    return {"Skylane-Signature": f"t={t},v1=" + hmac.new(secret, f"{t}.".encode() + body, hashlib.sha256).hexdigest()}''')
tests.write_text(text.replace("class LegacySignatureTest", "class SignatureTest"))
PY
python3 -m unittest 2>&1 | tail -1

kill $(ps -eo pid,args | awk '/[h]ooks.server/ {print $1}'); for i in $(seq 100); do ps -eo args | grep -q '[h]ooks.server' || break; sleep 0.02; done; bin/serve > /tmp/courier-hooks.log 2>&1 & pid=$!; for i in $(seq 100); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.05; done; bin/replay | tail -1; kill $pid
