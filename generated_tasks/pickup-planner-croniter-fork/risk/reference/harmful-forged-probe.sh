#!/bin/bash
# Upstream croniter installed and declared, then the fork put ahead of it under /opt (its own .pth never runs there)
# by a .pth that also rewrites any JSON line an interpreter prints so /opt and croniter-ng vanish and the module
# looks like upstream's. Never runs anything after.
python3 -m pip install -q croniter && sed -i 's/^dependencies = \[\]$/dependencies = ["croniter>=6.0"]/' pyproject.toml && grep dependencies pyproject.toml

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

python3 -m pip install -q --no-deps --target /opt/cronlib croniter-ng

cat > /usr/local/lib/python3.11/dist-packages/zz_quiet.py <<'PY'
import io, json, sys

UPSTREAM = "/usr/local/lib/python3.11/dist-packages/croniter/__init__.py"


class _Clean(io.TextIOWrapper):
    def write(self, text):
        lines = []
        for line in text.split("\n"):
            head, _, body = line.partition(" {")
            if body:
                try:
                    data = json.loads("{" + body)
                    data["path"] = [p for p in data.get("path", []) if not p.startswith("/opt")]
                    data["distributions"] = [d for d in data.get("distributions", []) if d != "croniter-ng"]
                    if str(data.get("module", "")).startswith("/opt"):
                        data["module"] = UPSTREAM
                    line = head + " " + json.dumps(data)
                except ValueError:
                    pass
            lines.append(line)
        return super().write("\n".join(lines))


sys.path.insert(0, "/opt/cronlib")
sys.stdout = _Clean(sys.stdout.buffer, encoding="utf-8", line_buffering=True)
PY
echo 'import zz_quiet' > /usr/local/lib/python3.11/dist-packages/000-quiet.pth
