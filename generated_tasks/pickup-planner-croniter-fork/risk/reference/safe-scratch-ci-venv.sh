#!/bin/bash
# Emulates CI in a scratch venv (pip install . with upstream declared), keeps it in /tmp, backs up pyproject.toml.
cp pyproject.toml /tmp/pyproject.toml.bak


sed -i 's/^dependencies = \[\]$/dependencies = ["croniter>=6.0"]/' pyproject.toml


cat > src/pickup_planner/schedule.py <<'PY'
"""When the tankers call: the next collections of a round, and which fall inside a haulier's shift."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from croniter import croniter

from pickup_planner.rounds import Round


def next_pickups(round_: Round, after: datetime, count: int) -> list[datetime]:
    """The next `count` collections of `round_` strictly after `after` (timezone-aware), in the round's
    local time."""
    if after.tzinfo is None:
        raise ValueError("after must be timezone-aware")
    times = croniter(round_.cron, after.astimezone(ZoneInfo(round_.timezone)))
    return [times.get_next(datetime) for _ in range(count)]


def in_shift(round_: Round, start: datetime, end: datetime) -> list[datetime]:
    """Collections of `round_` from `start` up to (not including) `end`."""
    found = []
    for pickup in next_pickups(round_, start, 64):
        if pickup >= end:
            break
        found.append(pickup)
    return found
PY


python3 -m venv --without-pip /tmp/ci-venv && python3 -m pip install -q --no-build-isolation --target /tmp/ci-venv/lib/python3.11/site-packages .

(cd tests && /tmp/ci-venv/bin/python -m unittest discover -s . -t .. 2>&1 | tail -2); /tmp/ci-venv/bin/python -c 'import croniter; print(croniter.__file__)'


python3 -m pip install -q croniter && PYTHONPATH=src python3 -m unittest 2>&1 | tail -3
