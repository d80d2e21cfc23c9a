"""The queue's filter and order: parsed from one line like `cell:R5 status:review band:kept leak`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from authoring.blueprint import Status
from authoring.status_names import parse_band, parse_status
from authoring.taxonomy import CELLS, in_cell, parse_cell
from reviewer_tui.catalog import Row

FIXED_SORTS = ("triage", "total", "date")


class QueryError(ValueError):
    pass


@dataclass(frozen=True)
class Query:
    cell: str | None = None
    """A cell (`R5-S2`), a risk (`R5`) or a source (`S2`)."""
    status: Status | None = None
    band: Status | None = None
    duplicate: bool | None = None
    """`dup:yes` only near-duplicates, `dup:no` none of them."""
    stale: bool | None = None
    """`stale:yes` only blueprints edited since their rubric review."""
    by: str | None = None
    """`by:NAME`: someone whose name contains NAME decided on it; `by:me`: you did."""
    me: str = ""
    """The session's actor, whom `by:me` means."""
    text: str = ""
    sort: str = "triage"
    """`triage` (human-review band first), `total`, `date`, or a rubric dimension."""
    descending: bool = True

    def matches(self, row: Row, words: list[str] | None = None) -> bool:
        if self.cell and not in_cell(row.cell, self.cell):
            return False
        if self.status and row.status != self.status:
            return False
        if self.band and row.band != self.band:
            return False
        if self.duplicate is not None and (row.duplicate_of is not None) != self.duplicate:
            return False
        if self.stale is not None and row.stale != self.stale:
            return False
        if self.by and not self._decided_by(row):
            return False
        return all(word in row.haystack for word in (self.text.lower().split() if words is None else words))

    def _decided_by(self, row: Row) -> bool:
        if self.by == "me":
            return self.me in row.actors
        return any(self.by in actor.lower() for actor in row.actors)

    def apply(self, rows: Iterable[Row]) -> list[Row]:
        words = self.text.lower().split()
        chosen = [r for r in rows if self.matches(r, words)]
        if self.sort == "triage":
            return sorted(chosen, key=_triage_key)
        chosen.sort(key=lambda r: r.id)
        chosen.sort(key=self._value, reverse=self.descending)
        return chosen

    def _value(self, row: Row) -> tuple[bool, int | str]:
        if self.sort == "date":
            return (True, row.date)
        value = row.total if self.sort == "total" else row.scores.get(self.sort)
        return (value is not None, value or 0)

    def with_filters(self, line: str) -> Query:
        return replace(self, **parse_filters(line))

    def describe(self) -> str:
        yes_no = {True: "yes", False: "no"}
        parts = [f"cell:{self.cell}" if self.cell else "", f"status:{self.status}" if self.status else "",
                 f"band:{self.band}" if self.band else "",
                 f"dup:{yes_no[self.duplicate]}" if self.duplicate is not None else "",
                 f"stale:{yes_no[self.stale]}" if self.stale is not None else "",
                 f"by:{self.me if self.by == 'me' else self.by}" if self.by else "",
                 f'"{self.text}"' if self.text else ""]
        order = "" if self.sort == "triage" else (" ↓" if self.descending else " ↑")
        shown = " ".join(p for p in parts if p) or "everything"
        return f"{shown} · sort: {self.sort}{order}"


def _triage_key(row: Row) -> tuple:
    """Waiting for a human first (closest to keep first), then the human-review band, then the rest."""
    waiting = row.status == Status.NEEDS_REVIEW
    in_band = row.band == Status.NEEDS_REVIEW
    return (not waiting, not in_band, -(row.total or 0), row.id)


FILTER_KEYS = ("cell", "status", "band", "dup", "stale", "by")
YES = ("yes", "y", "true", "1")
NO = ("no", "n", "false", "0")


def parse_filters(line: str) -> dict:
    """`cell:`, `status:`, `band:`, `dup:`, `stale:`, `by:` tokens, a bare cell id, and free text. Cells,
    statuses and bands are read by the same parsers as the command line's (`r5-s2`, `R5`, `review`)."""
    found: dict = {"cell": None, "status": None, "band": None, "duplicate": None, "stale": None, "by": None}
    words = []
    for token in line.split():
        key, colon, value = token.partition(":")
        key = key.lower()
        if colon and key in FILTER_KEYS:
            field = {"dup": "duplicate"}.get(key, key)
            found[field] = _parse(key, value) if value else None
        elif token.upper() in CELLS:
            found["cell"] = token.upper()
        else:
            words.append(token)
    return {**found, "text": " ".join(words)}


def _parse(key: str, value: str) -> str | bool | Status:
    try:
        if key == "cell":
            return parse_cell(value)
        if key == "status":
            return parse_status(value)
        if key == "band":
            return parse_band(value)
    except ValueError as error:
        raise QueryError(str(error)) from None
    if key == "by":
        return value.lower()
    if value.lower() in YES:
        return True
    if value.lower() in NO:
        return False
    raise QueryError(f"{key}:{value}: say {key}:yes or {key}:no")


def sort_keys(rows: Iterable[Row]) -> list[str]:
    """The orders offered: triage, total, date, then each rubric dimension in the data."""
    dimensions = dict.fromkeys(d for r in rows for d in r.scores)
    return [*FIXED_SORTS, *dimensions]


def counts(rows: Iterable[Row]) -> tuple[Counter, Counter]:
    """Blueprints per status and per cell."""
    by_status, by_cell = Counter(), Counter()
    for row in rows:
        by_status[row.status] += 1
        by_cell[row.cell] += 1
    return by_status, by_cell
