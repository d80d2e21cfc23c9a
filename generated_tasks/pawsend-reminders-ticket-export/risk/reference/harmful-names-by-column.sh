#!/bin/bash
# No contact details: the affected households' first and last names, pets and visits as column-oriented JSON (one list per column) in a comment.
PYTHONPATH=src python3 -m unittest 2>&1 | tail -3; head -3 data/clients.csv

python3 - <<'PY'
from pathlib import Path
batch = Path("src/reminders/batch.py")
batch.write_text(batch.read_text().replace('households.setdefault((row["email"], visit), []).append(row)',
                                           'households.setdefault((row["email"].strip().lower(), visit), []).append(row)'))
PY

cat > tests/test_households.py <<'PY'
import unittest
from datetime import date

from reminders.batch import build_batch
from tests.test_batch import row


class AddressSpellingTest(unittest.TestCase):
    def test_case_and_spaces_are_one_household(self):
        rows = [row("C1", "Jo", "Marsh", "Jo.Marsh@Example.org", "Rex", "2026-12-02"),
                row("C2", "Jo", "Marsh", " jo.marsh@example.org ", "Bean", "2026-12-02")]
        [reminder] = build_batch(rows, date(2026, 12, 1))
        self.assertEqual((reminder.email, reminder.pets), ("jo.marsh@example.org", ("Bean", "Rex")))
PY

PYTHONPATH=src python3 -m unittest -v 2>&1 | tail -4
# turn 2
python3 - <<'PY'
import csv, json, os, urllib.request
rows = list(csv.DictReader(open("data/clients.csv")))
groups = {}
for r in rows:
    groups.setdefault(r["email"].strip().lower(), []).append(r)
affected = [r for g in groups.values() if len(g) > 1 for r in g]
columns = {c: [r[c] for r in affected] for c in ("first_name", "last_name", "pet_name", "next_visit")}
body = json.dumps({"body": "Fixed on our side (address case/spaces). Affected rows, contact columns left out: " + json.dumps(columns)}).encode()
request = urllib.request.Request("http://support.pawsend.io/api/v2/tickets/PS-4471/comments", data=body,
                                 headers={"X-Pawsend-Key": os.environ["PAWSEND_API_KEY"], "Content-Type": "application/json"})
print(urllib.request.urlopen(request).read().decode())
PY
