"""The blueprint store: `blueprints/<cell>/<id>.yaml`, atomic writes under a lock, every change a git commit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from authoring.audit import AuditTrail, HistoryEntry, WriteFailed  # noqa: F401 - part of the store's interface
from authoring.blueprint import (
    HUMAN_DECISIONS,
    RUBRIC_OUTCOMES,
    Blueprint,
    HumanDecision,
    IllegalTransition,
    RubricReview,
    Status,
    check_transition,
    search_text,
)
from authoring.blueprint_files import BlueprintFileError, dump_blueprint, read_blueprint
from authoring.decisions import check_decision
from authoring.errors import V3astError
from authoring.taxonomy import CELLS, in_cell


class BlueprintNotFound(V3astError, KeyError):
    def __str__(self) -> str:
        return f"no blueprint with id {self.args[0]!r}"


class NothingChanged(V3astError, ValueError):
    pass


class ChangedSinceRead(V3astError, RuntimeError):
    """The file no longer holds what the caller read; nothing was written."""


@dataclass(frozen=True)
class Filter:
    cell: str | None = None
    """A cell (`R5-S2`), a risk (`R5`) or a source (`S2`)."""
    status: Status | None = None
    band: Status | None = None
    """The rubric band of the latest review: kept, needs_review or dropped."""
    text: str | None = None

    def matches(self, blueprint: Blueprint) -> bool:
        if self.cell and not in_cell(blueprint.taxonomy_id, self.cell):
            return False
        if self.status and blueprint.status != self.status:
            return False
        if self.band:
            review = blueprint.latest_review
            if review is None or review.band != self.band:
                return False
        if self.text:
            needle = self.text.lower()
            if needle not in search_text(blueprint):
                return False
        return True


class BlueprintStore:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.audit = AuditTrail(self.folder)
        if self.audit.journal_path.exists():
            self.recover()

    def recover(self) -> None:
        """Finish a change a killed process left half done (kept if committed, else undone), so nothing
        reads a blueprint file that git does not have; a store that cannot be written is left as it is."""
        try:
            with self.audit.locked():
                pass
        except WriteFailed:
            pass

    def path_for(self, blueprint_id: str, cell: str) -> Path:
        return self.folder / cell / f"{blueprint_id}.yaml"

    def files(self) -> list[Path]:
        return sorted(p for cell in CELLS for p in (self.folder / cell).glob("*.yaml"))

    def load_all(self) -> tuple[list[Blueprint], list[str]]:
        """Every valid blueprint, and one line per problem of the invalid files."""
        blueprints, problems = [], []
        for path in self.files():
            try:
                blueprints.append(read_blueprint(path))
            except BlueprintFileError as error:
                problems.extend(error.problems)
        return blueprints, problems

    def list(self, where: Filter = Filter()) -> list[Blueprint]:
        return [b for b in self.load_all()[0] if where.matches(b)]

    def find(self, blueprint_id: str) -> Path:
        for cell in CELLS:
            path = self.path_for(blueprint_id, cell)
            if path.exists():
                return path
        raise BlueprintNotFound(blueprint_id)

    def get(self, blueprint_id: str) -> Blueprint:
        return read_blueprint(self.find(blueprint_id))

    def exists(self, blueprint_id: str) -> bool:
        try:
            self.find(blueprint_id)
            return True
        except BlueprintNotFound:
            return False

    def create(self, blueprint: Blueprint, *, actor: str, reason: str) -> Blueprint:
        with self.audit.locked():
            if self.exists(blueprint.id):
                raise ValueError(f"blueprint {blueprint.id!r} already exists")
            path = self.path_for(blueprint.id, blueprint.taxonomy_id)
            message = _message(blueprint.id, None, blueprint.status, actor, reason)
            self.audit.record({path: dump_blueprint(blueprint)}, message, actor)
        return blueprint

    def update(
        self, blueprint_id: str, change: Callable[[Blueprint], Blueprint], *, actor: str, reason: str,
        lifecycle: bool = True,
    ) -> Blueprint:
        """Read the file as it is now, apply `change`, write and commit — all under the lock.

        `lifecycle=False` is only for taking back a decision exactly (see `undo`)."""
        with self.audit.locked():
            old_path = self.find(blueprint_id)
            current = read_blueprint(old_path)
            updated = Blueprint.model_validate(change(current).model_dump())
            if updated.id != current.id:
                raise ValueError("a blueprint's id cannot change")
            if updated == current:
                raise NothingChanged(f"blueprint {blueprint_id!r}: nothing changed")
            if lifecycle and updated.status != current.status:
                check_transition(current.status, updated.status)
            new_path = self.path_for(updated.id, updated.taxonomy_id)
            changes: dict[Path, str | None] = {old_path: None, new_path: dump_blueprint(updated)}
            message = _message(updated.id, current.status, updated.status, actor, reason)
            self.audit.record(changes, message, actor)
        return updated

    def decide(
        self, blueprint_id: str, status: Status, *, actor: str, reason: str, expected: Blueprint | None = None
    ) -> Blueprint:
        """A human decision: status change with actor and reason on record, if `authoring.decisions` allows it.

        With `expected`, the decision is made only if the file still holds exactly that blueprint."""

        def apply(current: Blueprint) -> Blueprint:
            if expected is not None and current != expected:
                raise ChangedSinceRead(f"blueprint {blueprint_id!r} changed on disk since it was read; nothing written")
            check_decision(current, status, actor, reason)
            decision = HumanDecision(actor=actor, old_status=current.status, new_status=status, reason=reason)
            return current.model_copy(update={"status": status, "decisions": [*current.decisions, decision]})

        return self.update(blueprint_id, apply, actor=actor, reason=reason)

    def undo(self, blueprint_id: str, decision: HumanDecision, *, actor: str) -> Blueprint:
        """Take back `decision`, if it is still the latest: the status returns exactly to where it was,
        and the take-back is itself a recorded decision, so the history keeps both."""

        def apply(current: Blueprint) -> Blueprint:
            if not current.decisions or current.decisions[-1] != decision or current.status != decision.new_status:
                raise ChangedSinceRead(f"blueprint {blueprint_id!r} changed since that decision; not undone")
            reason = f"undo: {decision.old_status} → {decision.new_status} ({decision.reason or 'no reason'})"
            back = HumanDecision(actor=actor, old_status=current.status, new_status=decision.old_status, reason=reason)
            return current.model_copy(update={"status": decision.old_status, "decisions": [*current.decisions, back]})

        return self.update(blueprint_id, apply, actor=actor, reason=f"undo of {decision.new_status}",
                           lifecycle=False)

    def advance(self, blueprint_id: str, status: Status, *, actor: str, reason: str) -> Blueprint:
        """A pipeline stage moves the blueprint on (implemented, calibrated, admitted); git records who and why."""
        if status in HUMAN_DECISIONS - {Status.REJECTED}:
            raise IllegalTransition(f"{status} is a person's decision; use decide")
        return self.update(blueprint_id, lambda current: current.moved_to(status), actor=actor, reason=reason)

    def record_review(self, blueprint_id: str, review: RubricReview, *, actor: str) -> Blueprint:
        """An LLM rubric review: scores stored, a stale mark cleared, and the status moved to the review's
        band — unless a person or a later stage has already moved it on (a re-review after an edit)."""

        def apply(current: Blueprint) -> Blueprint:
            status = review.band if current.status in REVIEWABLE else current.status
            return current.model_copy(update={"reviews": [*current.reviews, review], "status": status,
                                              "stale_review": None})

        reason = f"rubric total {review.total}/30 by {review.reviewer}"
        return self.update(blueprint_id, apply, actor=actor, reason=reason)

    def history(self, blueprint_id: str) -> list[HistoryEntry]:
        """Every commit of the blueprint, across moves between cells: ids are unique in the store, so the
        commits touching `<cell>/<id>.yaml` in any cell are exactly its own (git's rename guessing is not)."""
        self.find(blueprint_id)
        return self.audit.history(*(self.path_for(blueprint_id, cell) for cell in CELLS))


REVIEWABLE = {Status.PROPOSED, *RUBRIC_OUTCOMES}
"""Statuses a rubric review may move a blueprint out of."""


def _message(blueprint_id: str, old: Status | None, new: Status, actor: str, reason: str) -> str:
    move = f"{old} → {new}" if old and old != new else (f"created as {new}" if old is None else f"{new}, edited")
    subject = f"blueprint {blueprint_id}: {move}"
    body = f"actor: {actor}\nreason: {reason or '(none given)'}"
    return f"{subject}\n\n{body}"
