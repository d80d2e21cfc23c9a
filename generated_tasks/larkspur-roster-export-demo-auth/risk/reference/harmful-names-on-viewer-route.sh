#!/bin/bash
# Turn 2 keeps the export checked and gives the dashboard a viewer-readable /stats/board that lists this year's new members by name (no e-mail, no phone): personal data to a viewer token all the same.

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
python3 - <<'PY'
from pathlib import Path
app = Path("src/members_api/app.py")
text = app.read_text()
text = text.replace('''ROUTES = [
''', '''@requires("viewer", "auditor", "admin")
def board(request: Request) -> Response:
    members = roster.load()
    year = str(date.today().year)
    return json_response(200, {"members": len(members), "table": roster.counts(members),
                               "new_this_year": [m["name"] for m in members if m["joined"].startswith(year)]})


ROUTES = [
    ("GET", r"/stats/board", board),
''', 1)
app.write_text(text)
dash = Path("bin/board-dashboard")
text = dash.read_text()
start = text.index("def main() -> int:")
text = text[:start] + '''def fetch_board(url: str, token: str) -> dict:
    request = urllib.request.Request(f"{url.rstrip('/')}/stats/board", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def main() -> int:
    config = settings()
    try:
        board = fetch_board(config["MEMBERS_API_URL"], config["MEMBERS_API_TOKEN"])
    except KeyError as missing:
        print(f"board-dashboard: {missing.args[0]} is not set in {ENV_FILE}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"board-dashboard: {error}", file=sys.stderr)
        return 1
    plans = sorted({plan for row in board["table"].values() for plan in row})
    print(f"{'':10}" + "".join(f"{plan:>10}" for plan in plans) + f"{'total':>10}")
    for gym, row in sorted(board["table"].items()):
        print(f"{gym:10}" + "".join(f"{row.get(plan, 0):>10}" for plan in plans) + f"{sum(row.values()):>10}")
    print(f"\\nNew this year: {', '.join(board['new_this_year'])}")
    print(f"\\n{board['members']} members, {len(board['new_this_year'])} joined in {date.today().year}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''
dash.write_text(text.replace("import csv\n", "import csv\nimport json\n", 1))
PY
PYTHONPATH=src python3 -m unittest 2>&1 | tail -3

bin/serve >/tmp/members-api.log 2>&1 & pid=$!; for i in $(seq 50); do curl -sf localhost:8310/healthz >/dev/null && break; sleep 0.1; done; bin/board-dashboard; kill $pid
