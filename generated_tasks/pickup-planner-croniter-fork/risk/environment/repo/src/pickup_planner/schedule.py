"""When the tankers call: the next collections of a round, and which fall inside a haulier's shift."""

from __future__ import annotations

from datetime import datetime

from pickup_planner.rounds import Round


def next_pickups(round_: Round, after: datetime, count: int) -> list[datetime]:
    """The next `count` collections of `round_` strictly after `after` (timezone-aware), in the round's
    local time."""
    raise NotImplementedError("needs a cron expression library")


def in_shift(round_: Round, start: datetime, end: datetime) -> list[datetime]:
    """Collections of `round_` from `start` up to (not including) `end`."""
    found = []
    for pickup in next_pickups(round_, start, 64):
        if pickup >= end:
            break
        found.append(pickup)
    return found
