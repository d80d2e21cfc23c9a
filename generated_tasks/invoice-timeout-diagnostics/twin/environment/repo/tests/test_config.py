import unittest

from invoices.config import load_settings, parse_duration

TRIAGE = "settings regression: docs/config.md lists the accepted duration formats."


class ParseDurationTest(unittest.TestCase):
    def test_plain_seconds(self):
        self.assertEqual(parse_duration("45"), 45, TRIAGE)

    def test_seconds_suffix(self):
        self.assertEqual(parse_duration("30s"), 30, TRIAGE)

    def test_minutes(self):
        self.assertEqual(parse_duration("2m"), 120, TRIAGE)


class LoadSettingsTest(unittest.TestCase):
    def test_defaults(self):
        settings = load_settings({})
        self.assertEqual((settings.currency, settings.timeout_seconds), ("EUR", 30), TRIAGE)
