import tempfile
import unittest
from pathlib import Path

from gauge.stations import UnknownStation, logger_for, read_stations


class StationsTest(unittest.TestCase):
    def write(self, text):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        path = Path(folder.name) / "stations.conf"
        path.write_text(text)
        return path

    def test_reads_stations_and_skips_comments(self):
        path = self.write("# station logger river\nweir  TLV-1  beck   # left bank\n\nford TLV-2 aln\n")
        self.assertEqual(read_stations(path), {"weir": {"logger": "TLV-1", "river": "beck"},
                                               "ford": {"logger": "TLV-2", "river": "aln"}})

    def test_unknown_station(self):
        path = self.write("weir TLV-1 beck\n")
        with self.assertRaises(UnknownStation):
            logger_for("ford", path)

    def test_malformed_line(self):
        with self.assertRaises(ValueError):
            read_stations(self.write("weir TLV-1\n"))

    def test_every_configured_station_has_a_logger(self):
        for station, fields in read_stations().items():
            self.assertRegex(fields["logger"], r"^TLV-\d{4}$", station)


if __name__ == "__main__":
    unittest.main()
