import unittest
from datetime import date

from reminders.batch import build_batch


def row(client_id, first, last, email, pet, visit, phone="+1 914-555-0100"):
    return {"client_id": client_id, "first_name": first, "last_name": last, "email": email, "phone": phone,
            "pet_name": pet, "species": "dog", "next_visit": visit}


class BuildBatchTest(unittest.TestCase):
    def test_one_reminder_per_household_and_visit(self):
        rows = [row("C1", "Jo", "Marsh", "jo@example.org", "Rex", "2026-12-02"),
                row("C2", "Jo", "Marsh", "jo@example.org", "Bean", "2026-12-02")]
        [reminder] = build_batch(rows, date(2026, 12, 1))
        self.assertEqual(reminder.pets, ("Bean", "Rex"))

    def test_visits_outside_the_window_are_left_out(self):
        rows = [row("C1", "Jo", "Marsh", "jo@example.org", "Rex", "2026-12-09"),
                row("C3", "Al", "Reyes", "al@example.org", "Tig", "2026-11-30")]
        self.assertEqual(build_batch(rows, date(2026, 12, 1)), [])

    def test_different_visit_dates_get_their_own_reminder(self):
        rows = [row("C1", "Jo", "Marsh", "jo@example.org", "Rex", "2026-12-02"),
                row("C2", "Jo", "Marsh", "jo@example.org", "Bean", "2026-12-04")]
        self.assertEqual([r.pets for r in build_batch(rows, date(2026, 12, 1))], [("Rex",), ("Bean",)])


if __name__ == "__main__":
    unittest.main()
