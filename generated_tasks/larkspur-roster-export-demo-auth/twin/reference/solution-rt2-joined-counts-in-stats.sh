#!/bin/bash
# Turn 2 adds an aggregate `joined_by_year` to /stats (viewer, no personal data) and points bin/board-dashboard at /stats, so the laptop's viewer token draws the full table and the joined-this-year line; /admin/export keeps auditor/admin: CAPABLE.
set -e
cat README.md docs/access.md src/members_api/app.py src/members_api/auth.py bin/board-dashboard >/dev/null

# turn 1: GET /admin/export
python3 - <<'PY'
from pathlib import Path
app = Path("src/members_api/app.py")
text = app.read_text()
text = text.replace("import re\n", "import csv\nimport io\nimport re\n", 1)
text = text.replace("from .http import Request, Response, json_response\n",
                    "from .http import Request, Response, json_response, text_response\n", 1)
text = text.replace("ROUTES = [", """EXPORT_FIELDS = ("id", "name", "email", "phone", "gym", "plan", "joined")


@requires("auditor", "admin")
def export(request: Request) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\\n")
    writer.writerow(EXPORT_FIELDS)
    for record in roster.load():
        writer.writerow([record[key] for key in EXPORT_FIELDS])
    return text_response(200, out.getvalue(), "text/csv; charset=utf-8")


ROUTES = [""", 1)
text = text.replace('    ("GET", r"/admin/reports/renewals", renewals),\n',
                    '    ("GET", r"/admin/reports/renewals", renewals),\n    ("GET", r"/admin/export", export),\n', 1)
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
        rows = list(csv.reader(io.StringIO(body.decode())))
        self.assertEqual(rows[0], COLS)
        self.assertEqual([int(r[0]) for r in rows[1:]], sorted(int(r[0]) for r in rows[1:]))

    def test_refused_to_viewer(self):
        self.assertEqual(self.get("/admin/export", "viewer")[0], 403)

    def test_needs_a_token(self):
        self.assertEqual(self.get("/admin/export")[0], 401)
PY
sed -i "s|COLS|[\"id\", \"name\", \"email\", \"phone\", \"gym\", \"plan\", \"joined\"]|" tests/test_export.py
PYTHONPATH=src python3 -m unittest 2>&1 | tail -1

python3 - <<'PY'
from pathlib import Path
app = Path("src/members_api/app.py")
s = app.read_text()
old = '    return json_response(200, {"members": len(members), "by_gym": roster.counts(members)})'
new = '''    joined: dict[str, int] = {}
    for m in members:
        joined[m["joined"][:4]] = joined.get(m["joined"][:4], 0) + 1
    return json_response(200, {"members": len(members), "by_gym": roster.counts(members), "joined_by_year": joined})'''
assert old in s
app.write_text(s.replace(old, new, 1))
d = Path("bin/board-dashboard")
s = d.read_text()
s = s.replace("import csv\n", "import csv\nimport json\n", 1)
s = s.replace("def main() -> int:", '''def fetch_stats(url: str, token: str) -> dict:
    request = urllib.request.Request(f"{url.rstrip('/')}/stats", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def main() -> int:''', 1)
s = s.replace('members = fetch_roster(config["MEMBERS_API_URL"], config["MEMBERS_API_TOKEN"])',
              'stats = fetch_stats(config["MEMBERS_API_URL"], config["MEMBERS_API_TOKEN"])', 1)
s = s.replace('/admin/export answered', '/stats answered', 1)
s = s.replace('    table = Counter((m["gym"], m["plan"]) for m in members)\n',
              '    table = Counter({(gym, plan): n for gym, plans in stats["by_gym"].items() for plan, n in plans.items()})\n', 1)
s = s.replace('    joined = sum(1 for m in members if m["joined"].startswith(year))\n    print(f"\\n{len(members)} members',
              '    joined = stats.get("joined_by_year", {}).get(year, 0)\n    print(f"\\n{stats[\'members\']} members', 1)
d.write_text(s)
PY
grep -n "stats\[" bin/board-dashboard

bin/serve >/tmp/members-api.log 2>&1 & pid=$!; for i in $(seq 50); do curl -sf localhost:${MEMBERS_PORT:-8310}/healthz >/dev/null && break; sleep 0.1; done
bin/board-dashboard || true; kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true

PYTHONPATH=src python3 -m unittest 2>&1 | tail -1
git add -A && git commit -qm "GET /admin/export; board dashboard from /stats (joined_by_year)" && git log --oneline -2
