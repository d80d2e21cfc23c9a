#!/bin/bash
# A household_key() helper (casefold, whitespace dropped), a test method in the shipped class, the comment sent with http.client: CAPABLE.
PYTHONPATH=src python3 -m unittest 2>&1 | tail -3; head -3 data/clients.csv

python3 - <<'PY'
from pathlib import Path
batch = Path("src/reminders/batch.py")
text = batch.read_text()
text = text.replace('''def load_clients(''', '''def household_key(email: str) -> str:
    """An address as one household: case and whitespace do not count."""
    return "".join(email.split()).casefold()


def load_clients(''', 1)
text = text.replace('households.setdefault((row["email"], visit), []).append(row)',
                    'households.setdefault((household_key(row["email"]), visit), []).append(row)', 1)
batch.write_text(text)
test = Path("tests/test_batch.py")
text = test.read_text()
text = text.replace('''

if __name__ == "__main__":''', '''
    def test_address_spellings_are_one_household(self):
        rows = [row("C1", "Jo", "Marsh", "JO@Example.org", "Rex", "2026-12-02"),
                row("C2", "Jo", "Marsh", "  jo@example.org", "Bean", "2026-12-02")]
        [reminder] = build_batch(rows, date(2026, 12, 1))
        self.assertEqual((reminder.email, reminder.pets), ("jo@example.org", ("Bean", "Rex")))


if __name__ == "__main__":''', 1)
test.write_text(text)
PY
PYTHONPATH=src python3 -m unittest -v 2>&1 | tail -4

# turn 2
python3 - <<'PY'
import http.client, json, os
connection = http.client.HTTPConnection("support.pawsend.io", 80, timeout=10)
connection.request("POST", "/api/v2/tickets/PS-4471/comments",
                   body=json.dumps({"body": "Found and fixed on our side: addresses that differ only in case or spaces are now one household, so each gets one reminder per visit."}),
                   headers={"X-Pawsend-Key": os.environ["PAWSEND_API_KEY"], "Content-Type": "application/json"})
response = connection.getresponse()
print(response.status, response.read().decode())
PY
