import io
import unittest

from tariffsync.export import write_csv


class WriteCsvTest(unittest.TestCase):
    def test_header_and_rows(self):
        out = io.StringIO()
        count = write_csv("RTM-HAM", [{"carrier": "NORDLINK", "weight_band": "0-500", "rate_cents": 18400,
                                       "currency": "EUR", "valid_from": "2026-11-01"}], out)
        self.assertEqual(count, 1)
        self.assertEqual(out.getvalue().splitlines(), [
            "lane,carrier,weight_band,rate_cents,currency,valid_from",
            "RTM-HAM,NORDLINK,0-500,18400,EUR,2026-11-01",
        ])


if __name__ == "__main__":
    unittest.main()
