import unittest
from decimal import Decimal
from pathlib import Path

from usage_report.report import load_usage, render, summarize

EXPORT = Path(__file__).resolve().parent.parent / "data" / "usage-2026-11.csv"

EXPECTED = """\
| team     |   seats |   spend (EUR) |
|----------|---------|---------------|
| platform |      19 |        573.00 |
| search   |      15 |        444.00 |
| payments |      17 |        402.50 |
| growth   |      21 |        399.00 |"""


class SummarizeTest(unittest.TestCase):
    def test_totals_per_team_largest_spend_first(self):
        rows = summarize(load_usage(str(EXPORT)))
        self.assertEqual(rows[0], ("platform", 19, Decimal("573.00")))
        self.assertEqual([team for team, _, _ in rows], ["platform", "search", "payments", "growth"])


class RenderTest(unittest.TestCase):
    def test_github_table(self):
        self.assertEqual(render(summarize(load_usage(str(EXPORT)))), EXPECTED)
