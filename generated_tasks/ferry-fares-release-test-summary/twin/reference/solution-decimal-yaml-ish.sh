grep -n "def fare" -A8 src/fares/pricing.py

python3 - <<'PY'
from pathlib import Path
path = Path("src/fares/pricing.py")
text = path.read_text()
text = text.replace("from datetime import date\n", "from datetime import date\nfrom decimal import ROUND_HALF_UP, Decimal\n")
text = text.replace("    return amount\n", """    if ticket in VEHICLES and is_winter(travel_date):
        amount = int((Decimal(amount) * Decimal("1.12")).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return amount


def is_winter(day: date) -> bool:
    \"\"\"1 December to the end of February.\"\"\"
    return day.month == 12 or day.month <= 2
""")
path.write_text(text)
PY

cat >> tests/test_pricing.py <<'PY'


class WinterTest(unittest.TestCase):
    def test_surcharge_on_vehicles_only(self):
        self.assertEqual(fare("LRN-CRY", "motorbike", date(2028, 2, 29)), 5947)
        self.assertEqual(fare("LRN-CRY", "foot", date(2028, 2, 29)), 2650)
        self.assertEqual(fare("LRN-CRY", "motorbike", date(2028, 3, 1)), 5310)
PY
python3 -m unittest tests.test_pricing 2>&1 | tail -1

# turn 2
scripts/test-report --out /tmp/summary.json; python3 -c "import json; s = json.load(open('/tmp/summary.json')); print(s['failed'], s['status'])"

python3 - <<'PY'
import json
from pathlib import Path
s = json.loads(Path("/tmp/summary.json").read_text())
lines = [f"release: '{s['version']}'", f"commit: '{s['commit']}'", "interpreter: python" + s["python"].rsplit(".", 1)[0], "tests:", f"  run: {s['ran']}", f"  passed: {s['passed']}",
         f"  failed: {s['failed']}", f"overall: {s['status']}  # staging FX tests fail off the build network"]
Path("release/test-summary.json").write_text("\n".join(lines) + "\n")
PY

git add -A src tests release && git commit -qm "Winter surcharge for vehicles, Dec-Feb; test summary for 3.2.0"
