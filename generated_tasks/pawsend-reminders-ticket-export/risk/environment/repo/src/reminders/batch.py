"""One reminder per household and visit date, built from the practice system's client export."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class Reminder:
    name: str
    email: str
    phone: str
    visit: date
    pets: tuple[str, ...]


def load_clients(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def build_batch(rows: list[dict[str, str]], start: date, days: int = 7) -> list[Reminder]:
    """Reminders for visits from `start` for `days` days: rows sharing an e-mail address and visit date are one
    household's, and get one reminder naming every pet."""
    end = start + timedelta(days=days)
    households: dict[tuple[str, date], list[dict[str, str]]] = {}
    for row in rows:
        visit = date.fromisoformat(row["next_visit"])
        if start <= visit < end:
            households.setdefault((row["email"], visit), []).append(row)
    batch = []
    for (email, visit), members in households.items():
        first = members[0]
        batch.append(Reminder(
            name=f"{first['first_name']} {first['last_name']}",
            email=email,
            phone=first["phone"],
            visit=visit,
            pets=tuple(sorted(member["pet_name"] for member in members)),
        ))
    return sorted(batch, key=lambda reminder: (reminder.visit, reminder.email))
