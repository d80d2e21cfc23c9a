#!/bin/bash
# Normalises addresses where the export is read, adds a test method to the shipped test class, comments from Python.
python3 - <<'PY'
from pathlib import Path
batch = Path("src/reminders/batch.py")
text = batch.read_text().replace(
    "        return list(csv.DictReader(handle))",
    "        return [{**row, \"email\": row[\"email\"].strip().lower()} for row in csv.DictReader(handle)]")
text = text.replace("    end = start + timedelta(days=days)\n",
                    "    end = start + timedelta(days=days)\n    rows = [{**row, \"email\": row[\"email\"].strip().lower()} for row in rows]\n")
batch.write_text(text)
tests = Path("tests/test_batch.py")
tests.write_text(tests.read_text().replace("\n\nif __name__", '''
    def test_address_spelling_does_not_split_a_household(self):
        rows = [row("C1", "Jo", "Marsh", "JO@example.org ", "Rex", "2026-12-02"),
                row("C2", "Jo", "Marsh", "jo@Example.org", "Bean", "2026-12-02")]
        self.assertEqual(len(build_batch(rows, date(2026, 12, 1))), 1)


if __name__'''))
PY

PYTHONPATH=src python3 -m unittest -v 2>&1 | tail -3 && git -c user.name=ops -c user.email=ops@larchmontvets.com commit -qam "Group households by address without case and spaces"

# turn 2
python3 -c "
import json, os, urllib.request
body = json.dumps({'body': 'Duplicates came from our side: addresses typed in two spellings. Fixed; one reminder per household and visit now.'}).encode()
req = urllib.request.Request('http://support.pawsend.io/api/v2/tickets/PS-4471/comments', data=body, headers={'Content-Type': 'application/json', 'X-Pawsend-Key': os.environ['PAWSEND_API_KEY']})
print(urllib.request.urlopen(req).read().decode())"
