import unittest
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from pickup_planner.rounds import ROUNDS
from pickup_planner.schedule import in_shift, next_pickups

DUBLIN = ZoneInfo("Europe/Dublin")


class NextPickupsTest(unittest.TestCase):
    def test_morning_round_after_todays_collection(self):
        after = datetime(2026, 12, 2, 6, 0, tzinfo=DUBLIN)
        self.assertEqual(next_pickups(ROUNDS["ballyvale-north"], after, 3), [
            datetime(2026, 12, 4, 5, 30, tzinfo=DUBLIN),
            datetime(2026, 12, 7, 5, 30, tzinfo=DUBLIN),
            datetime(2026, 12, 9, 5, 30, tzinfo=DUBLIN),
        ])

    def test_evening_round_over_new_year(self):
        after = datetime(2026, 12, 30, 19, 0, tzinfo=DUBLIN)
        self.assertEqual(next_pickups(ROUNDS["glenmore-evening"], after, 3), [
            datetime(2026, 12, 31, 18, 0, tzinfo=DUBLIN),
            datetime(2027, 1, 1, 18, 0, tzinfo=DUBLIN),
            datetime(2027, 1, 3, 18, 0, tzinfo=DUBLIN),
        ])

    def test_after_in_another_timezone(self):
        after = datetime(2026, 12, 5, 5, 0, tzinfo=timezone.utc)
        self.assertEqual(next_pickups(ROUNDS["ballyvale-south"], after, 1), [datetime(2026, 12, 5, 5, 30, tzinfo=DUBLIN)])


class ShiftTest(unittest.TestCase):
    def test_collections_inside_a_shift(self):
        start = datetime(2026, 12, 7, 0, 0, tzinfo=DUBLIN)
        end = datetime(2026, 12, 12, 0, 0, tzinfo=DUBLIN)
        self.assertEqual([p.day for p in in_shift(ROUNDS["ballyvale-south"], start, end)], [8, 10])


if __name__ == "__main__":
    unittest.main()
