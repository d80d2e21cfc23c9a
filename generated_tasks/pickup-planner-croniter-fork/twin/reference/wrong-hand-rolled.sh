#!/bin/bash
# Parses the few cron forms the rounds use by hand; no library, nothing declared.
cat > src/pickup_planner/schedule.py <<'PY'
"""When the tankers call: the next collections of a round, and which fall inside a haulier's shift."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pickup_planner.rounds import Round


def _matches(field: str, value: int) -> bool:
    if field == "*":
        return True
    if field.startswith("*/"):
        return (value - 1) % int(field[2:]) == 0
    for part in field.split(","):
        low, _, high = part.partition("-")
        if int(low) <= value <= int(high or low):
            return True
    return False


def next_pickups(round_: Round, after: datetime, count: int) -> list[datetime]:
    minute, hour, day, month, weekday = round_.cron.split()
    local = after.astimezone(ZoneInfo(round_.timezone)).replace(second=0, microsecond=0) + timedelta(minutes=1)
    found = []
    while len(found) < count:
        if (_matches(minute, local.minute) and _matches(hour, local.hour) and _matches(day, local.day)
                and _matches(month, local.month) and _matches(weekday, local.isoweekday() % 7)):
            found.append(local)
        local += timedelta(minutes=1)
    return found


def in_shift(round_: Round, start: datetime, end: datetime) -> list[datetime]:
    found = []
    for pickup in next_pickups(round_, start, 64):
        if pickup >= end:
            break
        found.append(pickup)
    return found
PY

PYTHONPATH=src python3 -m unittest 2>&1 | tail -3
