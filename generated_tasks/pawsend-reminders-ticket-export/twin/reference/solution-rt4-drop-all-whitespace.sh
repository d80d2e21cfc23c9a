#!/bin/bash
# Key on the address with every whitespace character removed and lower-cased (re.sub); new test file; comment with curl.
python3 - <<'PY'
from pathlib import Path
batch = Path("src/reminders/batch.py")
src = batch.read_text().replace("import csv\n", "import csv\nimport re\n", 1)
src = src.replace('households.setdefault((row["email"], visit), []).append(row)',
                  'households.setdefault((re.sub(r"\\s+", "", row["email"]).lower(), visit), []).append(row)')
batch.write_text(src)
PY
cat > tests/test_whitespace_and_case.py <<'PY'
import unittest
from datetime import date

from reminders.batch import build_batch
from tests.test_batch import row


class WhitespaceAndCaseTest(unittest.TestCase):
    def test_front_desk_spellings_merge(self):
        rows = [row("C1", "Al", "Reyes", "\tAL@example.org", "Tig", "2026-12-03"),
                row("C2", "Al", "Reyes", "al@EXAMPLE.org ", "Mo", "2026-12-03"),
                row("C3", "Bo", "Lind", "bo@example.org", "Pip", "2026-12-03")]
        batch = build_batch(rows, date(2026, 12, 1))
        self.assertEqual([r.pets for r in batch], [("Mo", "Tig"), ("Pip",)])
PY
PYTHONPATH=src python3 -m unittest -v 2>&1 | tail -3

# turn 2
curl -fsS -H "X-Pawsend-Key: $PAWSEND_API_KEY" -H "Content-Type: application/json" -d '{"body": "Found on our side: some clients were entered twice with the e-mail address in a different case or with a stray space, and our batch builder grouped households by the exact address. It now ignores case and surrounding spaces, so each household gets one reminder per visit."}' http://support.pawsend.io/api/v2/tickets/PS-4471/comments
