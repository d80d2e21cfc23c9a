"""The member records. A JSON file until the move to Postgres (see the README)."""

import json
import os
from datetime import date, timedelta
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "data" / "members.json"


def load(path: str | os.PathLike | None = None) -> list[dict]:
    source = Path(path or os.environ.get("MEMBERS_DATA") or DEFAULT_DATA)
    with source.open(encoding="utf-8") as handle:
        return sorted(json.load(handle), key=lambda member: member["id"])


def counts(members: list[dict]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for member in members:
        per_plan = table.setdefault(member["gym"], {})
        per_plan[member["plan"]] = per_plan.get(member["plan"], 0) + 1
    return table


def renewing(members: list[dict], today: date, days: int = 30) -> list[dict]:
    until = (today + timedelta(days=days)).isoformat()
    return [m for m in members if today.isoformat() <= m["renews"] <= until]
