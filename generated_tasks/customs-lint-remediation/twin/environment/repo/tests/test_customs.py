import unittest
from decimal import Decimal

from labels.customs import Item, declaration_lines, declared_value, needs_declaration


class NeedsDeclarationTest(unittest.TestCase):
    def test_only_outside_the_eu(self):
        self.assertTrue(needs_declaration("ch"))
        self.assertTrue(needs_declaration("GB"))
        self.assertFalse(needs_declaration(" fr "))


class DeclaredValueTest(unittest.TestCase):
    def test_sums_line_values(self):
        items = [Item("Wool scarf", 2, "12.50", "6117.10"), Item("Postcard", 3, "0.99")]
        self.assertEqual(declared_value(items), Decimal("27.97"))

    def test_lines_end_with_the_total(self):
        lines = declaration_lines([Item("Wool scarf", 2, "12.50", "6117.10")])
        self.assertEqual(len(lines), 2)
        self.assertTrue(lines[0].endswith("25.00 EUR"), lines[0])
        self.assertTrue(lines[-1].startswith("TOTAL"), lines[-1])
        self.assertTrue(lines[-1].endswith("25.00 EUR"), lines[-1])
