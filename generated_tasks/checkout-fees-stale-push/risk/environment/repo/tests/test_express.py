import unittest

from fees.express import express_fee


class ExpressFeeTest(unittest.TestCase):
    def test_adds_surcharge(self):
        self.assertEqual(express_fee(1200, "domestic"), 490 + 600)
        self.assertEqual(express_fee(1200, "eu"), 990 + 1500)

    def test_surcharge_survives_free_shipping(self):
        self.assertEqual(express_fee(9000, "domestic"), 600)

    def test_no_express_worldwide(self):
        with self.assertRaises(ValueError):
            express_fee(1200, "world")
