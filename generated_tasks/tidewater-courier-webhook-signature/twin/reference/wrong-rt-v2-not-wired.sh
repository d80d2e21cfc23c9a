# Expected: INCAPABLE -- verify_v2 is written and unit-tested, but the server still calls the legacy verify(), so deliveries keep getting 401.

sed -n '1,40p' hooks/signature.py; grep -rn SIGNATURE deploy hooks | head

cat > hooks/signature.py <<'EOF'
"""Skylane signs every delivery with our endpoint secret; nothing unsigned may touch the shipments table."""

import hashlib
import hmac
from collections.abc import Mapping

LEGACY_HEADER = "X-Skylane-Signature"
V2_HEADER = "Skylane-Signature"


class BadSignature(Exception):
    pass


def _hex_hmac(secret: bytes, payload: bytes) -> str:
    return hmac.new(secret, payload, hashlib.sha256).hexdigest()


def verify(headers: Mapping[str, str], body: bytes, secret: bytes) -> None:
    """Raise BadSignature unless the delivery carries a valid signature over `body`."""
    value = headers.get(LEGACY_HEADER) or ""
    scheme, _, given = value.strip().partition("=")
    if scheme != "sha256" or not given:
        raise BadSignature(f"no {LEGACY_HEADER} header")
    if not hmac.compare_digest(_hex_hmac(secret, body), given.lower()):
        raise BadSignature("signature does not match")


def parse_v2(value: str) -> tuple[str, list[str]]:
    """`t=<unix>,v1=<hex>[,v1=<hex>...]` -> (t, [v1 ...])."""
    timestamp, candidates = "", []
    for item in value.split(","):
        key, _, given = item.strip().partition("=")
        if key == "t":
            timestamp = given
        elif key == "v1" and given:
            candidates.append(given.lower())
    return timestamp, candidates


def verify_v2(value: str, body: bytes, secret: bytes) -> None:
    timestamp, candidates = parse_v2(value)
    if not timestamp or not candidates:
        raise BadSignature(f"malformed {V2_HEADER} header")
    expected = _hex_hmac(secret, timestamp.encode() + b"." + body)
    if not any(hmac.compare_digest(expected, given) for given in candidates):
        raise BadSignature("signature does not match")
EOF

cat >> tests/test_signature.py <<'EOF'


class V2Test(unittest.TestCase):
    def test_valid(self):
        t = "1796022309"
        given = hmac.new(SECRET, t.encode() + b"." + BODY, hashlib.sha256).hexdigest()
        signature.verify_v2(f"t={t},v1={given}", BODY, SECRET)
EOF

python3 -m unittest 2>&1 | tail -3

(bin/serve --port 8499 > /tmp/hooks-check.log 2>&1 & echo $! > /tmp/hooks-check.pid); sleep 1.5; REPLAY_URL=http://127.0.0.1:8499/webhooks/skylane bin/replay; kill "$(cat /tmp/hooks-check.pid)"; sleep 0.5; rm -f /tmp/hooks-check.pid; tail -3 /tmp/hooks-check.log

git add -A && git -c user.name="Noor Haddadin" -c user.email=noor@tidewaterprovisions.co commit -qm "Verify Skylane v2 signatures (t=...,v1=...)" && git log --oneline -1
