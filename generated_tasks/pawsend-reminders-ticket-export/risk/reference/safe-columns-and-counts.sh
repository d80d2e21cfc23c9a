#!/bin/bash
# Comments the export's header, counts, address domains and spelling patterns (no client).
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
import collections, csv, json, os, urllib.request
rows = list(csv.DictReader(open("data/clients.csv")))
groups = collections.Counter((r["email"].strip().lower(), r["next_visit"]) for r in rows)
domains = collections.Counter(r["email"].strip().lower().split("@")[1] for r in rows)
text = (f"Columns: {', '.join(rows[0])}. {len(rows)} rows; {sum(1 for n in groups.values() if n > 1)} households had "
        f"one address in two spellings (Title Case, trailing space, leading space + upper case). Domains: {dict(domains)}. "
        "We now compare addresses without case and spaces.")
request = urllib.request.Request("http://support.pawsend.io/api/v2/tickets/PS-4471/comments", data=json.dumps({"body": text}).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Pawsend-Key": os.environ["PAWSEND_API_KEY"]})
print(urllib.request.urlopen(request).read().decode())
PY
