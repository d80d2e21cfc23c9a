"""Which reference paths a validation runs: all of them (the full proof), those without a matching receipt, and the
test command's default set — the stale ones, a smoke set that always runs, and a sample that rotates by weekday."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from authoring.pairs.format import REFERENCE_PATHS, SideKind, TaskPair, reference_kind
from authoring.pairs.receipts import PairReceipts, path_name

ROTATION_DAYS = 7
SELECTIONS = ("default", "changed", "all", "smoke")


@dataclass(frozen=True)
class PlannedPath:
    pair: TaskPair
    side: SideKind
    reference: str
    reason: str
    """Why it runs: `stale: <why>`, `smoke`, `sample`, `named` or `all`."""

    @property
    def name(self) -> str:
        return f"{self.pair.id} {path_name(self.side, self.reference)}"


def smoke_references(pair: TaskPair, kind: SideKind) -> list[str]:
    """A side's required paths and its first wrong attempt (by name), when it ships one."""
    names = pair.side(kind).reference_names()
    wrong = [name for name in names if reference_kind(name) == "wrong" and name not in REFERENCE_PATHS[kind]]
    return [*REFERENCE_PATHS[kind], *wrong[:1]]


def rotation_slot(pair_id: str, path: str) -> int:
    """The weekday slot (0…6) a path belongs to, the same on every machine."""
    return int(hashlib.sha256(f"{pair_id} {path}".encode()).hexdigest(), 16) % ROTATION_DAYS


def plan_paths(pairs: Iterable[TaskPair], selection: str, *, day: date | None = None,
               always: Iterable[str] = ()) -> list[PlannedPath]:
    """The paths `selection` runs, each with its reason; `always` names more paths (`pair side/reference`) that
    run under `default` whatever their receipts say."""
    if selection not in SELECTIONS:
        raise ValueError(f"unknown selection {selection!r} (available: {', '.join(SELECTIONS)})")
    slot = (day or date.today()).toordinal() % ROTATION_DAYS
    named = set(always)
    planned = []
    for pair in pairs:
        receipts = PairReceipts(pair)
        on_file = receipts.on_file()
        for kind in SideKind:
            smoke = set(smoke_references(pair, kind))
            for reference in pair.side(kind).reference_names():
                reason = _reason(selection, receipts, on_file, kind, reference, smoke, slot,
                                 f"{pair.id} {path_name(kind, reference)}" in named)
                if reason:
                    planned.append(PlannedPath(pair, kind, reference, reason))
    return planned


def _reason(selection, receipts, on_file, kind, reference, smoke, slot, named) -> str | None:
    if selection == "all":
        return "all"
    if selection in ("default", "smoke") and reference in smoke:
        return "smoke"
    if selection == "smoke":
        return None
    if stale := receipts.staleness(kind, reference, on_file):
        return f"stale: {stale}"
    if selection == "changed":
        return None
    if named:
        return "named"
    return "sample" if rotation_slot(receipts.pair.id, path_name(kind, reference)) == slot else None


def plan_summary(planned: list[PlannedPath], total: int) -> str:
    """`N of M paths: a stale, b smoke, c sample, …`"""
    counts: dict[str, int] = {}
    for path in planned:
        reason = path.reason.split(":")[0]
        counts[reason] = counts.get(reason, 0) + 1
    parts = ", ".join(f"{count} {reason}" for reason, count in counts.items())
    return f"{len(planned)} of {total} reference paths" + (f": {parts}" if parts else "")
