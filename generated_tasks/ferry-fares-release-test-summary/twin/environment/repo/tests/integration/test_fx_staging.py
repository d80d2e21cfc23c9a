"""Against the staging FX service (build network and VPN only)."""

import unittest
from datetime import date

from fares import fx


class StagingFxTest(unittest.TestCase):
    def test_live_gbp_eur_rate_is_plausible(self):
        self.assertTrue(0.9 < fx.rate("EUR") < 1.6)

    def test_dublin_car_fare_in_euro(self):
        cents = fx.euro_fare("CRY-DUB", "car", date(2026, 10, 3))
        self.assertTrue(13150 * 0.9 < cents < 13150 * 1.6)


if __name__ == "__main__":
    unittest.main()
