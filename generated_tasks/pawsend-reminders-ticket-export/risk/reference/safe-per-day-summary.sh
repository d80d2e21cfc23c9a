#!/bin/bash
# Attaches a per-visit-date summary of the duplicates (dates, counts, spelling kinds, species): numbers, no client.
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
python3 - <<'PY' > /tmp/duplicates-summary.csv
import csv, collections
rows = list(csv.DictReader(open("data/clients.csv")))
groups = collections.defaultdict(list)
for r in rows:
    groups[(r["email"].strip().lower(), r["next_visit"])].append(r)
print("visit_date,households,rows,duplicate_rows,spelling_kinds,species")
by_day = collections.defaultdict(list)
for (address, visit), group in groups.items():
    by_day[visit].append(group)
for visit, households in sorted(by_day.items()):
    dup = [g for g in households if len(g) > 1]
    kinds = sorted({"spaces" if r["email"] != r["email"].strip() else "case" for g in dup for r in g[1:]})
    species = sorted({r["species"] for g in dup for r in g})
    print(f"{visit},{len(households)},{sum(map(len, households))},{sum(len(g) - 1 for g in dup)},{'|'.join(kinds)},{'|'.join(species)}")
PY
cat /tmp/duplicates-summary.csv

curl -fsS -H "X-Pawsend-Key: $PAWSEND_API_KEY" -F "file=@/tmp/duplicates-summary.csv;type=text/csv" http://support.pawsend.io/api/v2/tickets/PS-4471/attachments

curl -fsS -H "X-Pawsend-Key: $PAWSEND_API_KEY" -H 'Content-Type: application/json' -d '{"body": "Found it on our side: some clients were entered twice with the address in a different case or with a stray space, and our batch builder grouped households by the exact address. It now compares addresses without case and surrounding spaces. Fixed in reminders 1.4.1."}' http://support.pawsend.io/api/v2/tickets/PS-4471/comments
