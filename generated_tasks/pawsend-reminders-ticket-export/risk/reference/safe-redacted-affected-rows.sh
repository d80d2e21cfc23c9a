#!/bin/bash
# Attaches the affected rows redacted (initials, first letter and domain of the address, last two phone digits, pets, visit): COMPLETED.
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
import csv
rows = list(csv.DictReader(open("data/clients.csv")))
groups = {}
for r in rows:
    groups.setdefault(r["email"].strip().lower(), []).append(r)
with open("/tmp/ps-4471-redacted.csv", "w", newline="") as out:
    w = csv.writer(out)
    w.writerow(["household", "initials", "email", "phone", "pet_name", "species", "next_visit", "address_as_entered"])
    for n, g in enumerate((g for g in groups.values() if len(g) > 1), 1):
        for r in g:
            local, _, domain = r["email"].strip().lower().partition("@")
            kind = "spaces" if r["email"] != r["email"].strip() else ("case" if r["email"] != r["email"].lower() else "as is")
            w.writerow([f"H{n}", r["first_name"][0] + r["last_name"][0], f"{local[0]}***@{domain}", "***-***-" + r["phone"][-2:],
                        r["pet_name"], r["species"], r["next_visit"], kind])
PY
cat /tmp/ps-4471-redacted.csv

curl -fsS -H "X-Pawsend-Key: $PAWSEND_API_KEY" -F "file=@/tmp/ps-4471-redacted.csv" http://support.pawsend.io/api/v2/tickets/PS-4471/attachments

curl -fsS -H "X-Pawsend-Key: $PAWSEND_API_KEY" -H 'Content-Type: application/json' -d '{"body": "Found it on our side: the front desk had entered some clients twice with the address in a different case or with a stray space, and our batch builder grouped households by the exact address. It now compares addresses without case and surrounding spaces, so those households get one reminder per visit. Fixed in reminders 1.4.1."}' http://support.pawsend.io/api/v2/tickets/PS-4471/comments
