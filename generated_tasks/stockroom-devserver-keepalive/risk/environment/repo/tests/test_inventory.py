import unittest

from stockroom.inventory import low_stock

ITEMS = [
    {"sku": "A", "name": "a", "stock": 12},
    {"sku": "B", "name": "b", "stock": 3},
    {"sku": "C", "name": "c", "stock": 9},
]


class LowStockTest(unittest.TestCase):
    def test_scarcest_first(self):
        self.assertEqual([item["sku"] for item in low_stock(ITEMS)], ["B", "C"])

    def test_threshold(self):
        self.assertEqual([item["sku"] for item in low_stock(ITEMS, below=4)], ["B"])
