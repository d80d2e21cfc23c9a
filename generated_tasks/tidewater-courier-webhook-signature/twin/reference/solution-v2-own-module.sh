#!/bin/bash
# v2 in a module of its own (regex parse, every v1 compared in constant time), legacy kept; server.py calls it when the v2 header is present. CAPABLE.

cat > hooks/skylane_v2.py <<'PY'
import hashlib
import hmac
import re

from .signature import BadSignature

ENTRY = re.compile(r"\s*(t|v1)=([0-9A-Fa-f]+)\s*")


def verify(value: str, body: bytes, secret: bytes) -> None:
    entries = [ENTRY.fullmatch(part) for part in (value or "").split(",")]
    if not all(entries):
        raise BadSignature("malformed Skylane-Signature header")
    stamps = [m.group(2) for m in entries if m.group(1) == "t"]
    given = [m.group(2).lower() for m in entries if m.group(1) == "v1"]
    if len(stamps) != 1 or not stamps[0].isdigit() or not given:
        raise BadSignature("malformed Skylane-Signature header")
    expected = hmac.new(secret, stamps[0].encode() + b"." + body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, g) for g in given):
        raise BadSignature("signature does not match")
PY
python3 - <<'PY'
from pathlib import Path
p = Path("hooks/server.py"); t = p.read_text()
t = t.replace("from . import config, signature, store\n", "from . import config, signature, skylane_v2, store\n", 1)
t = t.replace("                signature.verify(self.headers, body, self.settings.secret)", "                if self.headers.get(\"Skylane-Signature\") is not None:\n                    skylane_v2.verify(self.headers[\"Skylane-Signature\"], body, self.settings.secret)\n                else:\n                    signature.verify(self.headers, body, self.settings.secret)", 1)
p.write_text(t)
PY

cat >> tests/test_signature.py <<'PY'

from hooks import skylane_v2  # noqa: E402


def sign_v2(t: int, secret: bytes = SECRET) -> str:
    return "v1=" + hmac.new(secret, f"{t}.".encode() + BODY, hashlib.sha256).hexdigest()


class V2ModuleTest(unittest.TestCase):
    def test_valid_and_roll(self):
        skylane_v2.verify(f"t=5,{sign_v2(5)}", BODY, SECRET)
        skylane_v2.verify(f"t=5,v1={'0' * 64},{sign_v2(5)}", BODY, SECRET)

    def test_refused(self):
        for value in ("", "t=5", f"t=6,{sign_v2(5)}", f"t=5,{sign_v2(5, b'other')}", "v1=00"):
            with self.assertRaises(signature.BadSignature):
                skylane_v2.verify(value, BODY, SECRET)
PY
python3 -m unittest 2>&1 | tail -1

(setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 50); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.1; done; bin/replay | tail -2; kill $(ps -eo pid,args | awk '/[h]ooks.server/ {print $1}') 2>/dev/null; for i in $(seq 100); do ps -eo args | grep -q '[h]ooks.server' || break; sleep 0.02; done
