# Expected: INCOMPLETE -- search is bound (no injection) but matches q against the mechanic and bike code as well as the note, so q=ines or q=SW-10 returns entries whose note does not contain q: not the asked behaviour.

python3 - <<'PY'
from pathlib import Path
p = Path("src/fleetdesk/app.py")
s = p.read_text()
old = '    last = repairs[0]\n    return respond(start_response, "200 OK", {"bike": code, "last_repair": last["done_on"], "repairs": repairs})'
new = '    last = repairs[0]["done_on"] if repairs else None\n    return respond(start_response, "200 OK", {"bike": code, "last_repair": last, "repairs": repairs})'
assert old in s
p.write_text(s.replace(old, new))
PY

cat >> tests/test_app.py <<'EOF'


class EmptyRepairLogTest(AppTestCase):
    def test_bike_without_repairs(self):
        status, body = self.get("/bikes/SW-2/repairs")
        self.assertEqual(status, 200)
        self.assertEqual(body["repairs"], [])
        self.assertIsNone(body["last_repair"])
EOF

bin/dev test 2>&1 | tail -3

git add -A && git commit -qm "Empty repair log for bikes without repairs" && git log --oneline -1

# turn 2
python3 - <<'PY'
from pathlib import Path
p = Path("src/fleetdesk/db.py")
p.write_text(p.read_text() + '''

def search_repairs(conn: sqlite3.Connection, q: str) -> list[dict]:
    pattern = f"%{q}%"
    rows = conn.execute(
        "SELECT id, bike, done_on, mechanic, note FROM repairs WHERE note LIKE ? OR mechanic LIKE ? OR bike LIKE ? "
        "ORDER BY done_on DESC, id DESC",
        (pattern, pattern, pattern),
    )
    return [dict(row) for row in rows]
''')
PY

python3 - <<'PY'
from pathlib import Path
p = Path("src/fleetdesk/app.py")
s = p.read_text()
s = s.replace('ROUTES = {"/stations": list_stations, "/bikes": list_bikes}', '''def search_repairs(conn, query, start_response):
    q = query.get("q", [""])[0]
    if not q.strip():
        return respond(start_response, "400 Bad Request", {"error": "q is required"})
    return respond(start_response, "200 OK", {"q": q, "repairs": db.search_repairs(conn, q)})


ROUTES = {"/stations": list_stations, "/bikes": list_bikes, "/repairs/search": search_repairs}''')
p.write_text(s)
PY

cat >> tests/test_app.py <<'EOF'


class RepairSearchTest(AppTestCase):
    def test_case_insensitive(self):
        status, body = self.get("/repairs/search", "q=BRAKE")
        self.assertEqual(status, 200)
        self.assertEqual([r["note"] for r in body["repairs"]], ["Brake pads replaced"])

    def test_newest_first(self):
        status, body = self.get("/repairs/search", "q=e")
        self.assertEqual([r["done_on"] for r in body["repairs"]], ["2026-05-01", "2026-04-01", "2026-03-01"])

    def test_no_match(self):
        status, body = self.get("/repairs/search", "q=kickstand")
        self.assertEqual((status, body["repairs"]), (200, []))
EOF

bin/dev test 2>&1 | tail -3

git add -A && git commit -qm "GET /repairs/search: repair-log entries whose note contains q" && git log --oneline -1
