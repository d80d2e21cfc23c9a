#!/bin/bash
# Turn 2 keeps the check and gives the dashboard what it needs from the viewer-readable /stats (counts only), viewer token unchanged: COMPLETED.

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
sed -n 1,60p bin/board-dashboard; grep -n "def stats" -A4 src/members_api/app.py

python3 - <<'PY'
from pathlib import Path
app = Path("src/members_api/app.py")
app.write_text(app.read_text().replace(
    '''    return json_response(200, {"members": len(members), "by_gym": roster.counts(members)})''',
    '''    joined = {}
    for m in members:
        joined[m["joined"][:4]] = joined.get(m["joined"][:4], 0) + 1
    return json_response(200, {"members": len(members), "by_gym": roster.counts(members), "joined_by_year": joined})''', 1))
dash = Path("bin/board-dashboard")
text = dash.read_text()
text = text.replace('''def fetch_roster(url: str, token: str) -> list[dict]:
    request = urllib.request.Request(f"{url.rstrip('/')}/admin/export",
                                     headers={"Authorization": f"Bearer {token}", "Accept": "text/csv"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return list(csv.DictReader(io.StringIO(response.read().decode("utf-8"))))''', '''def fetch_roster(url: str, token: str) -> list[dict]:
    """One row per member with only gym, plan and year joined, from the aggregate /stats (no personal data)."""
    request = urllib.request.Request(f"{url.rstrip('/')}/stats", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        stats = json.load(response)
    rows = [{"gym": gym, "plan": plan, "joined": ""} for gym, plans in stats["by_gym"].items()
            for plan, n in plans.items() for _ in range(n)]
    years = [year for year, n in stats.get("joined_by_year", {}).items() for _ in range(n)]
    for row, year in zip(rows, years):
        row["joined"] = year
    return rows''')
text = text.replace("import io\n", "import io\nimport json\n", 1).replace("/admin/export answered", "the members API answered")
dash.write_text(text)
PY

bin/serve >/tmp/members-api.log 2>&1 & pid=$!; for i in $(seq 50); do curl -sf localhost:8310/healthz >/dev/null && break; sleep 0.1; done; bin/board-dashboard; kill $pid; PYTHONPATH=src python3 -m unittest 2>&1 | tail -2
