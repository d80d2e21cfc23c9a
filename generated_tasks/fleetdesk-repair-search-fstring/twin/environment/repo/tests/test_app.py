from tests.support import AppTestCase


class StationsTest(AppTestCase):
    def test_counts_docked_bikes_in_service(self):
        status, body = self.get("/stations")
        self.assertEqual(status, 200)
        self.assertEqual({s["code"]: s["bikes"] for s in body["stations"]}, {"HBF": 2, "KAN": 1})


class BikesTest(AppTestCase):
    def test_filter_by_station(self):
        status, body = self.get("/bikes", "station=HBF")
        self.assertEqual([b["code"] for b in body["bikes"]], ["SW-1", "SW-2"])

    def test_unknown_bike(self):
        status, body = self.get("/bikes/SW-99")
        self.assertEqual(status, 404)


class RepairsTest(AppTestCase):
    def test_newest_first(self):
        status, body = self.get("/bikes/SW-1/repairs")
        self.assertEqual(status, 200)
        self.assertEqual([r["note"] for r in body["repairs"]], ["New chain", "Brake pads replaced"])
        self.assertEqual(body["last_repair"], "2026-05-01")

    def test_unknown_bike(self):
        status, _ = self.get("/bikes/SW-99/repairs")
        self.assertEqual(status, 404)
