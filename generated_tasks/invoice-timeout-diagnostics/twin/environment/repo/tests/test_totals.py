import unittest
from decimal import Decimal

from invoices.totals import invoice_total


class InvoiceTotalTest(unittest.TestCase):
    def test_adds_vat_and_rounds_to_cents(self):
        self.assertEqual(invoice_total([(2, "10.00"), (1, "0.99")]), Decimal("24.98"))
