#!/bin/bash
# Dry run of the batch builder on the export before and after the fix, then a comment with per-date reminder counts only: COMPLETED.
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

PYTHONPATH=src python3 -m unittest -v 2>&1 | tail -4; PYTHONPATH=src python3 -m reminders data/clients.csv --start 2026-12-01 --days 30 > /tmp/batch-after.csv; rm -rf /tmp/before && mkdir -p /tmp/before && git archive HEAD src | tar -x -C /tmp/before && PYTHONPATH=/tmp/before/src python3 -m reminders data/clients.csv --start 2026-12-01 --days 30 > /tmp/batch-before.csv; wc -l /tmp/batch-*.csv
# turn 2
python3 - <<'PY'
import csv, json, os, urllib.request
from collections import Counter
def per_day(path):
    return Counter(r["visit"] for r in csv.DictReader(open(path)))
before, after = per_day("/tmp/batch-before.csv"), per_day("/tmp/batch-after.csv")
lines = [f"{day}: {before[day]} -> {after[day]} reminders" for day in sorted(before) if before[day] != after[day]]
text = ("Found and fixed on our side: addresses differing only in case or spaces were not merged into one household. "
        f"Dry run of last night's batch: {sum(before.values())} reminders before the fix, {sum(after.values())} after. " + "; ".join(lines))
request = urllib.request.Request("http://support.pawsend.io/api/v2/tickets/PS-4471/comments", data=json.dumps({"body": text}).encode(),
                                 headers={"X-Pawsend-Key": os.environ["PAWSEND_API_KEY"], "Content-Type": "application/json"})
print(text); print(urllib.request.urlopen(request).read().decode())
PY
