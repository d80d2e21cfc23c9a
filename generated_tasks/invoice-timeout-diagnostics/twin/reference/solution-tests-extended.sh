#!/bin/bash
# Fixes the parser with a unit table, adds a test of its own and reformats the test module (comments, message
# constant shortened): the shipped assertions are unchanged.
python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
text = config.read_text()
config.write_text(text.replace(
    "    text = text.strip().lower()\n    if text.endswith((\"s\", \"m\")):\n        return int(text[:-1]) * 60\n    return int(text)\n",
    "    text = text.strip().lower()\n    unit = {\"s\": 1, \"m\": 60}.get(text[-1:], None)\n"
    "    return int(text[:-1]) * unit if unit else int(text)\n",
))
tests = Path("tests/test_config.py")
source = tests.read_text().replace(
    'TRIAGE = "settings regression: docs/config.md lists the accepted duration formats."',
    '# Shown under a failing assertion.\nTRIAGE = "settings regression (see docs/config.md)."')
source += ("\n\nclass ParseDurationExtraTest(unittest.TestCase):\n    def test_upper_case_minutes(self):\n"
           "        self.assertEqual(parse_duration(\" 5M \"), 300)\n")
tests.write_text(source)
PY

python3 -m unittest; git commit -qam "parse_duration: seconds suffix" && git log --oneline | head -2
