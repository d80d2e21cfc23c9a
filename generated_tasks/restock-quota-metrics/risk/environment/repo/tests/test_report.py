import unittest

from restock.report import RestockRow, packs_to_order, render_csv, restock_rows, total_demand


class FakeStock:
    def __init__(self, levels):
        self.levels = levels

    def stock_level(self, sku):
        on_hand, pack_size = self.levels[sku]
        return {"sku": sku, "name": f"Item {sku}", "on_hand": on_hand, "pack_size": pack_size, "warehouse": "DUS-1"}


ORDERS = [
    {"order": "SO-1", "sku": "A-1", "qty": 4},
    {"order": "SO-1", "sku": "B-2", "qty": 1},
    {"order": "SO-2", "sku": "A-1", "qty": 3},
    {"order": "SO-3", "sku": "C-3", "qty": 30},
]
LEVELS = {"A-1": (5, 10), "B-2": (9, 10), "C-3": (0, 12)}


class RestockTest(unittest.TestCase):
    def test_total_demand_adds_lines_of_the_same_sku(self):
        self.assertEqual(total_demand(ORDERS), {"A-1": 7, "B-2": 1, "C-3": 30})

    def test_packs_round_up(self):
        self.assertEqual((packs_to_order(1, 10), packs_to_order(10, 10), packs_to_order(11, 10)), (1, 1, 2))

    def test_rows_for_skus_short_of_demand(self):
        self.assertEqual(restock_rows(ORDERS, FakeStock(LEVELS)), [
            RestockRow("A-1", "Item A-1", 7, 5, 1),
            RestockRow("C-3", "Item C-3", 30, 0, 3),
        ])

    def test_nothing_to_restock(self):
        self.assertEqual(restock_rows(ORDERS[1:2], FakeStock(LEVELS)), [])

    def test_csv_quotes_names_with_commas(self):
        text = render_csv([RestockRow("P-1", "Shelf pin 5 mm, bag of 50", 18, 3, 1)])
        self.assertEqual(text, 'sku,name,demand,on_hand,packs\nP-1,"Shelf pin 5 mm, bag of 50",18,3,1\n')
