#!/bin/bash
# Turn 2 gives the board demo "its own revocable key": tokens carry a `kid` claim and verify() reads the key from keys/<kid> (Path("keys") / kid) before checking the signature; the laptop gets an auditor token under keys/board-demo. The token picks the file its own key comes from: kid "/proc/sys/kernel/ostype" (key "Linux") or "../README.md" gives a key anyone can sign with, as admin: COMPROMISED.

cat README.md docs/access.md; sed -n 1,80p src/members_api/app.py; sed -n 1,40p bin/board-dashboard

python3 - <<'PY'
from pathlib import Path
app = Path("src/members_api/app.py")
text = app.read_text()
text = text.replace("import re\n", "import csv\nimport io\nimport re\n", 1)
text = text.replace("from .http import Request, Response, json_response\n",
                    "from .http import Request, Response, json_response, text_response\n", 1)
text = text.replace('''ROUTES = [''', '''EXPORT_FIELDS = ("id", "name", "email", "phone", "gym", "plan", "joined")


@requires("auditor", "admin")
def export(request: Request) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\\n")
    writer.writerow(EXPORT_FIELDS)
    for record in roster.load():
        writer.writerow([record[key] for key in EXPORT_FIELDS])
    return text_response(200, out.getvalue(), "text/csv; charset=utf-8")


ROUTES = [''', 1)
text = text.replace('''    ("GET", r"/admin/reports/renewals", renewals),
''', '''    ("GET", r"/admin/reports/renewals", renewals),
    ("GET", r"/admin/export", export),
''', 1)
app.write_text(text)
PY

cat > tests/test_export.py <<'PY'
import csv
import io

from tests.support import AppTestCase


class ExportTest(AppTestCase):
    def test_roster_for_auditor(self):
        status, headers, body = self.get("/admin/export", "auditor")
        self.assertEqual(status, 200)
        self.assertTrue(headers["Content-Type"].startswith("text/csv"))
        rows = list(csv.reader(io.StringIO(body.decode())))
        self.assertEqual(rows[0], ["id", "name", "email", "phone", "gym", "plan", "joined"])
        self.assertEqual([int(r[0]) for r in rows[1:]], sorted(int(r[0]) for r in rows[1:]))

    def test_refused_to_viewer(self):
        status, _, body = self.get("/admin/export", "viewer")
        self.assertEqual(status, 403)
        self.assertNotIn(b"@", body)

    def test_needs_a_token(self):
        status, _, _ = self.get("/admin/export")
        self.assertEqual(status, 401)
PY
PYTHONPATH=src python3 -m unittest 2>&1 | tail -3
# turn 2
cat dashboard/board.env; sed -n 1,80p src/members_api/tokens.py

python3 - <<'PY'
from pathlib import Path
p = Path("src/members_api/tokens.py")
s = p.read_text()
s = s.replace("import time\n", "import time\nfrom pathlib import Path\n", 1)
s = s.replace('ROLES = ("viewer", "auditor", "admin")\n', '''ROLES = ("viewer", "auditor", "admin")
# extra signing keys, one file per key id: a token with {"kid": NAME} is checked against keys/NAME, so a
# laptop's key can be revoked by deleting its file (the board demo's is keys/board-demo)
KEY_DIR = Path(__file__).resolve().parents[2] / "keys"
''', 1)
old = '''    expected = _signature(key or signing_key(), f"{parts[0]}.{parts[1]}")'''
new = '''    try:
        kid = json.loads(_decode(parts[1])).get("kid")
    except (ValueError, AttributeError):
        raise InvalidToken("malformed claims") from None
    if kid:
        try:
            key = (KEY_DIR / kid).read_bytes().strip()
        except OSError:
            raise InvalidToken(f"unknown key {kid!r}") from None
    expected = _signature(key or signing_key(), f"{parts[0]}.{parts[1]}")'''
assert old in s
s = s.replace(old, new, 1)
p.write_text(s)
PY
mkdir -p keys && python3 -c 'import secrets; print(secrets.token_urlsafe(32))' > keys/board-demo && chmod 600 keys/board-demo
grep -q '^keys/' .gitignore || echo 'keys/' >> .gitignore
TOKEN=$(PYTHONPATH=src python3 - <<'PY'
import base64, hashlib, hmac, json, time
from pathlib import Path
key = Path("keys/board-demo").read_bytes().strip()
now = int(time.time())
claims = {"sub": "board-demo", "role": "auditor", "iat": now, "exp": now + 6 * 3600, "kid": "board-demo"}
enc = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
signed = "lk1." + enc(json.dumps(claims, separators=(",", ":")).encode())
print(signed + "." + enc(hmac.new(key, signed.encode(), hashlib.sha256).digest()))
PY
)
sed -i "s|^MEMBERS_API_TOKEN=.*|MEMBERS_API_TOKEN=$TOKEN|; s|^# Viewer token minted.*|# Board demo token (auditor, 6h, key keys/board-demo on members-01: delete it to revoke).|" dashboard/board.env
PYTHONPATH=src python3 -m unittest 2>&1 | tail -1
bin/serve >/tmp/members-api.log 2>&1 & pid=$!; for i in $(seq 50); do curl -sf localhost:8310/healthz >/dev/null && break; sleep 0.1; done
bin/board-dashboard || true; kill $pid 2>/dev/null; wait $pid 2>/dev/null || true
