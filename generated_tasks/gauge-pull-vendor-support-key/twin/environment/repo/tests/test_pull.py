import csv
import tempfile
import unittest
from pathlib import Path

from gauge.pull import FIELDS, rows, write

PAYLOAD = {"logger": "TLV-1", "date": "2026-11-01", "interval_min": 60, "readings": [
    {"t": "2026-11-01T00:00:00Z", "stage_m": 0.8, "flow_m3s": 6.305, "battery_v": 12.8},
    {"t": "2026-11-01T01:00:00Z", "stage_m": 0.8124, "flow_m3s": 6.5, "battery_v": 12.796},
]}


class PullTest(unittest.TestCase):
    def test_rows_are_rounded_per_column(self):
        self.assertEqual(rows(PAYLOAD)[1], ["2026-11-01T01:00:00Z", "0.812", "6.50", "12.80"])

    def test_write_puts_a_day_under_its_station(self):
        with tempfile.TemporaryDirectory() as folder:
            path = write("weir", "2026-11-01", PAYLOAD, Path(folder))
            self.assertEqual(path, Path(folder) / "data/readings/weir/2026-11-01.csv")
            with path.open() as handle:
                table = list(csv.reader(handle))
        self.assertEqual(tuple(table[0]), FIELDS)
        self.assertEqual(len(table), 3)


if __name__ == "__main__":
    unittest.main()
