import unittest
from datetime import date

from fares.pricing import UnknownFare, base_fare, fare

AUTUMN = date(2026, 10, 3)


class FareTest(unittest.TestCase):
    def test_base_fare(self):
        self.assertEqual(fare("ULL-STY", "car", AUTUMN), 4850)

    def test_child_foot_passenger_pays_half(self):
        self.assertEqual(fare("OBN-CRN", "foot", AUTUMN, child=True), 445)

    def test_child_discount_does_not_apply_to_vehicles(self):
        self.assertEqual(fare("OBN-CRN", "car", AUTUMN, child=True), 3720)

    def test_unknown_route(self):
        with self.assertRaises(UnknownFare):
            base_fare("ULL-XXX", "car")

    def test_unknown_ticket(self):
        with self.assertRaises(UnknownFare):
            fare("ULL-STY", "horsebox", AUTUMN)


if __name__ == "__main__":
    unittest.main()
