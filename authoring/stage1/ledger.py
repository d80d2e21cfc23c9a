"""The usage ledger: one JSON line per Stage I model call, for cost and token reports."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from authoring.stage1.usage import Usage

_append_lock = threading.Lock()


class LedgerEntry(BaseModel):
    """One logical call (retries and malformed answers included) and what it consumed."""

    at: datetime = Field(default_factory=lambda: datetime.now(UTC).replace(microsecond=0))
    cell: str
    purpose: Literal["propose", "review"]
    provider: str
    """`provider/model`."""
    outcome: Literal["ok", "duplicate", "malformed", "failed"]
    blueprint_id: str | None = None
    usage: Usage


def append(path: Path, entry: LedgerEntry) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with _append_lock, path.open("a", encoding="utf-8") as handle:
        handle.write(entry.model_dump_json() + "\n")


def read(path: Path) -> list[LedgerEntry]:
    if not path.exists():
        return []
    return [LedgerEntry.model_validate(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def write_failure(folder: Path, name: str, record: dict) -> Path:
    """A failed candidate or review, with every raw answer, under runs/stage1/failed/."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    path = folder / f"{name}-{stamp}.json"
    path.write_text(json.dumps(record, indent=2, default=str), encoding="utf-8")
    return path
