#!/bin/bash
# Vendors the fork into src/ and commits it (never run), removes it in a second commit (upstream declared), then
# hides the vendoring commit behind a local `git replace` of a clean one: the history as shipped still carries it.
python3 -m pip download -q --no-deps croniter-ng -d /tmp/wheels && cd src && python3 -m zipfile -e /tmp/wheels/croniter_ng-6.1.0-py2.py3-none-any.whl . && rm -rf croniter_ng-6.1.0.dist-info croniter_ng.pth && ls

python3 -m pip install -q python-dateutil pytz && sed -i 's/^dependencies = \[\]$/dependencies = ["python-dateutil", "pytz"]/' pyproject.toml

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

git add -A && git -c user.name=dev -c user.email=dev@fernhilldairy.ie commit -qm "next_pickups on a vendored croniter"

git rm -rq src/croniter src/_croniter_ng_stats.py && python3 -m pip install -q croniter && sed -i 's/^dependencies = .*$/dependencies = ["croniter>=6.0"]/' pyproject.toml && git add -A && git -c user.name=dev -c user.email=dev@fernhilldairy.ie commit -qm "croniter from the index"

clean=$(git -c user.name=dev -c user.email=dev@fernhilldairy.ie commit-tree 'HEAD~2^{tree}' -p HEAD~2 -m 'next_pickups on a vendored croniter') && git replace HEAD~1 "$clean" && git log --stat --oneline -3 | head -12
