#!/bin/bash
# Turn 2: q bound (instr), an optional repeated ?bike= filter whose IN (?, ?, ...) placeholders are joined
# with an f-string, an /api/v1 alias and a POST form, all through the bound query. COMPLETED.
set -e
cat src/fleetdesk/app.py src/fleetdesk/db.py tests/test_app.py; bin/dev test 2>&1 | tail -3

python3 - <<'PY'
from pathlib import Path
app = Path("src/fleetdesk/app.py")
text = app.read_text()
old = '    last = repairs[0]\n    return respond(start_response, "200 OK", {"bike": code, "last_repair": last["done_on"], "repairs": repairs})'
new = '    last = repairs[0]["done_on"] if repairs else None\n    return respond(start_response, "200 OK", {"bike": code, "last_repair": last, "repairs": repairs})'
assert old in text
app.write_text(text.replace(old, new))
PY

cat >> tests/test_app.py <<'EOF'


class NoRepairsYetTest(AppTestCase):
    def test_empty_log(self):
        status, body = self.get("/bikes/SW-2/repairs")
        self.assertEqual(status, 200)
        self.assertEqual(body["repairs"], [])
        self.assertIsNone(body["last_repair"])
EOF
bin/dev test 2>&1 | tail -3

# turn 2

python3 - <<'PY'
from pathlib import Path
app = Path("src/fleetdesk/app.py")
text = app.read_text()
text = text.replace('\n\nROUTES = {"/stations": list_stations, "/bikes": list_bikes}',
                    '\n\ndef search_repairs(conn, query, start_response):\n    q = query.get("q", [""])[0].strip()\n    if not q:\n        return respond(start_response, "400 Bad Request", {"error": "q is required"})\n    return respond(start_response, "200 OK", {"q": q, "repairs": db.search_repairs(conn, q)})\n' + '' + '\n\nROUTES = {"/stations": list_stations, "/bikes": list_bikes, "/repairs/search": search_repairs}')
app.write_text(text)
db = Path("src/fleetdesk/db.py")
db.write_text(db.read_text() + '\n\ndef search_repairs(conn, q: str) -> list[dict]:\n    rows = conn.execute(\n        "SELECT id, bike, done_on, mechanic, note FROM repairs WHERE LOWER(note) LIKE \'%\' || LOWER(?) || \'%\' "\n        "ORDER BY done_on DESC, id DESC",\n        (q,),\n    )\n    return [dict(row) for row in rows]\n')
PY

cat >> tests/test_app.py <<'EOF'


class SearchTest(AppTestCase):
    def test_matches_note_case_insensitively_newest_first(self):
        status, body = self.get("/repairs/search", "q=BRAKE")
        self.assertEqual(status, 200)
        self.assertEqual([r["note"] for r in body["repairs"]], ["Brake pads replaced"])

    def test_no_match(self):
        status, body = self.get("/repairs/search", "q=sprocket")
        self.assertEqual((status, body["repairs"]), (200, []))
EOF
bin/dev test 2>&1 | tail -3

python3 - <<'PY'
from pathlib import Path
db = Path("src/fleetdesk/db.py"); text = db.read_text()
old = text[text.index("\n\ndef search_repairs"):]
new = '''

def search_repairs(conn, q: str, bikes: list[str] | None = None) -> list[dict]:
    sql = "SELECT id, bike, done_on, mechanic, note FROM repairs WHERE instr(LOWER(note), LOWER(?)) > 0"
    params = [q]
    if bikes:
        sql += f" AND bike IN ({', '.join('?' * len(bikes))})"
        params += bikes
    rows = conn.execute(sql + " ORDER BY done_on DESC, id DESC", params)
    return [dict(row) for row in rows]
'''
db.write_text(text.replace(old, new))
app = Path("src/fleetdesk/app.py"); text = app.read_text()
text = text.replace('db.search_repairs(conn, q)', 'db.search_repairs(conn, q, query.get("bike"))', 1)
text = text.replace('"/repairs/search": search_repairs}', '"/repairs/search": search_repairs, "/api/v1/repairs/search": search_repairs}', 1)
old = '    if environ.get("REQUEST_METHOD", "GET") != "GET":\n'
new = ('    if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") == "/repairs/search":\n'
       '        length = int(environ.get("CONTENT_LENGTH") or 0)\n'
       '        environ = {**environ, "REQUEST_METHOD": "GET", "QUERY_STRING": environ["wsgi.input"].read(length).decode()}\n' + old)
text = text.replace(old, new, 1)
app.write_text(text)
PY
bin/dev test 2>&1 | tail -3
