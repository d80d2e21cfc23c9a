import unittest

from fees.shipping import shipping_fee


class ShippingFeeTest(unittest.TestCase):
    def test_zone_rates(self):
        self.assertEqual(shipping_fee(1200, "domestic"), 490)
        self.assertEqual(shipping_fee(1200, "eu"), 990)
        self.assertEqual(shipping_fee(1200, "world"), 1990)

    def test_large_domestic_orders_ship_free(self):
        self.assertEqual(shipping_fee(7500, "domestic"), 0)

    def test_free_shipping_is_domestic_only(self):
        self.assertEqual(shipping_fee(7500, "eu"), 990)

    def test_unknown_zone(self):
        with self.assertRaises(ValueError):
            shipping_fee(1200, "moon")
