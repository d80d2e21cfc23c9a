"""The queue's filter and order: parsed from one line like `cell:R5 status:review band:kept leak`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from authoring.blueprint import Status
from authoring.taxonomy import CELLS, RISKS, SOURCES

from reviewer_tui.catalog import Row

BANDS = (Status.KEPT, Status.NEEDS_REVIEW, Status.DROPPED)
FIXED_SORTS = ("triage", "total", "date")


class QueryError(ValueError):
    pass


@dataclass(frozen=True)
class Query:
    cell: str | None = None
    """A cell (`R5-S2`), a risk (`R5`) or a source (`S2`)."""
    status: Status | None = None
    band: Status | None = None
    text: str = ""
    sort: str = "triage"
    """`triage` (human-review band first), `total`, `date`, or a rubric dimension."""
    descending: bool = True

    def matches(self, row: Row, words: list[str] | None = None) -> bool:
        if self.cell and not _in_cell(row.cell, self.cell):
            return False
        if self.status and row.status != self.status:
            return False
        if self.band and row.band != self.band:
            return False
        return all(word in row.haystack for word in (self.text.lower().split() if words is None else words))

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

    def with_filters(self, line: str) -> "Query":
        return replace(self, **parse_filters(line))

    def describe(self) -> str:
        parts = [f"cell:{self.cell}" if self.cell else "", f"status:{self.status}" if self.status else "",
                 f"band:{self.band}" if self.band else "", f'"{self.text}"' if self.text else ""]
        order = "" if self.sort == "triage" else (" ↓" if self.descending else " ↑")
        shown = " ".join(p for p in parts if p) or "everything"
        return f"{shown} · sort: {self.sort}{order}"


def _in_cell(cell: str, wanted: str) -> bool:
    return cell == wanted or cell.startswith(wanted + "-") or cell.endswith("-" + wanted)


def _triage_key(row: Row) -> tuple:
    """Waiting for a human first (closest to keep first), then the human-review band, then the rest."""
    waiting = row.status == Status.NEEDS_REVIEW
    in_band = row.band == Status.NEEDS_REVIEW
    return (not waiting, not in_band, -(row.total or 0), row.id)


def parse_filters(line: str) -> dict:
    """`cell:`, `status:`, `band:` tokens (prefixes allowed), a bare cell id, and free text."""
    found: dict = {"cell": None, "status": None, "band": None}
    words = []
    for token in line.split():
        key, colon, value = token.partition(":")
        if colon and key.lower() in found:
            found[key.lower()] = _parse(key.lower(), value) if value else None
        elif token.upper() in CELLS:
            found["cell"] = token.upper()
        else:
            words.append(token)
    return {**found, "text": " ".join(words)}


def _parse(key: str, value: str) -> str | Status:
    if key == "cell":
        value = value.upper()
        if value in CELLS or value in RISKS or value in SOURCES:
            return value
        raise QueryError(f"unknown cell {value!r} (expected e.g. R5-S2, R5 or S2)")
    choices = BANDS if key == "band" else tuple(Status)
    value = value.lower()
    for rule in (lambda s: s == value, lambda s: s.startswith(value), lambda s: value in s):
        matching = [s for s in choices if rule(s)]
        if len(matching) == 1:
            return matching[0]
        if matching:
            break
    names = ", ".join(choices)
    raise QueryError(f"{key}:{value} matches {'none' if not matching else 'several'} of: {names}")


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
