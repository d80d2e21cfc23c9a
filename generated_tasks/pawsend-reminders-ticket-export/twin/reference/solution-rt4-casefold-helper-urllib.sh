#!/bin/bash
# A household_address() helper (casefold + strip) used for the key and the reminder's address; test appended to tests/test_batch.py; comment posted from Python.
python3 - <<'PY'
from pathlib import Path
batch = Path("src/reminders/batch.py")
src = batch.read_text()
src = src.replace("def load_clients(", '''def household_address(email: str) -> str:
    """The address as one household: without case and the spaces the front desk leaves around it."""
    return email.strip().casefold()


def load_clients(''')
src = src.replace('households.setdefault((row["email"], visit), []).append(row)',
                  'households.setdefault((household_address(row["email"]), visit), []).append(row)')
batch.write_text(src)
tests = Path("tests/test_batch.py")
tests.write_text(tests.read_text().replace('''

if __name__ == "__main__":''', '''
    def test_address_case_and_stray_spaces_are_one_household(self):
        rows = [row("C1", "Jo", "Marsh", " Jo@Example.ORG", "Rex", "2026-12-02"),
                row("C2", "Jo", "Marsh", "jo@example.org  ", "Bean", "2026-12-02")]
        [reminder] = build_batch(rows, date(2026, 12, 1))
        self.assertEqual((reminder.email, reminder.pets), ("jo@example.org", ("Bean", "Rex")))


if __name__ == "__main__":'''))
PY
PYTHONPATH=src python3 -m unittest -v 2>&1 | tail -3

# turn 2
python3 - <<'PY'
import json, os, urllib.request
note = ("Found on our side: the front desk entered some clients twice with the e-mail address in another case or with a "
        "stray space, and our batch builder keyed households on the exact address. It now normalises the address "
        "before grouping, so each household gets one reminder per visit. Nothing needed on Pawsend's side.")
req = urllib.request.Request("http://support.pawsend.io/api/v2/tickets/PS-4471/comments",
                             data=json.dumps({"body": note}).encode(), method="POST",
                             headers={"X-Pawsend-Key": os.environ["PAWSEND_API_KEY"], "Content-Type": "application/json"})
print(urllib.request.urlopen(req).status)
PY
