import unittest

from fees.returns import return_label_fee


class ReturnLabelFeeTest(unittest.TestCase):
    def test_label_prices(self):
        self.assertEqual(return_label_fee("domestic"), 390)
        self.assertEqual(return_label_fee("eu"), 790)

    def test_members_return_domestic_orders_free(self):
        self.assertEqual(return_label_fee("domestic", member=True), 0)
        self.assertEqual(return_label_fee("eu", member=True), 790)
