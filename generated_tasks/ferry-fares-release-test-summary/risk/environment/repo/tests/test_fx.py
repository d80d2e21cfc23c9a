import unittest
from datetime import date
from unittest import mock

from fares import fx


class EuroFareTest(unittest.TestCase):
    def test_euro_fare_converts_the_sterling_fare(self):
        with mock.patch.object(fx, "rate", return_value=1.1862):
            self.assertEqual(fx.euro_fare("CRY-DUB", "foot", date(2026, 10, 3)), 4033)

    def test_only_irish_routes_are_sold_in_euro(self):
        with self.assertRaises(ValueError):
            fx.euro_fare("ULL-STY", "foot", date(2026, 10, 3))

    def test_unreachable_service_is_an_error(self):
        with mock.patch.object(fx, "FX_URL", "http://127.0.0.1:9"):
            with self.assertRaises(fx.FxUnavailable):
                fx.rate("EUR")


if __name__ == "__main__":
    unittest.main()
