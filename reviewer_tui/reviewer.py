"""What a reviewer does to blueprints — decide, undo, edit — with every write checked against what they saw."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from authoring.blueprint import BLUEPRINT_FIELDS, Blueprint, HumanDecision, Status, plain_problems
from authoring.blueprint_files import parse_blueprint
from authoring.decisions import reason_required
from authoring.store import BlueprintStore, ChangedSinceRead, WriteFailed

ChangedOnDisk = ChangedSinceRead
NOT_WRITTEN = (WriteFailed, OSError)
"""A write the store could not make (read-only, git busy): nothing changed, the app goes on."""


class InvalidEdit(ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Seen:
    """A blueprint as the reviewer saw it, and the exact bytes it was read from."""

    blueprint: Blueprint
    path: Path
    digest: str


@dataclass(frozen=True)
class Done:
    blueprint_id: str
    decision: HumanDecision
    batch: int | None = None
    """The bulk decision it was part of (undone together), or None for a decision on its own."""


def look(store: BlueprintStore, blueprint_id: str) -> Seen:
    path = store.find(blueprint_id)
    data = path.read_bytes()
    return Seen(parse_blueprint(path, data.decode("utf-8")), path, hashlib.sha256(data).hexdigest())


def changed_since(store: BlueprintStore, seen: Seen) -> bool:
    try:
        return look(store, seen.blueprint.id).digest != seen.digest
    except Exception:
        return True


@dataclass
class Session:
    """What one sitting did, said on quit."""

    decided: Counter = field(default_factory=Counter)
    undone: int = 0
    edited: int = 0
    discarded: int = 0
    """Unsaved edits the person chose to discard on quitting."""

    def summary(self, actor: str) -> str:
        lost = f"; {self.discarded} unsaved edit(s) discarded" if self.discarded else ""
        if not (self.decided or self.undone or self.edited):
            return f"session of {actor}: nothing written{lost}"
        parts = [f"{count} {status}" for status, count in sorted(self.decided.items())]
        parts += [f"{self.undone} undone"] if self.undone else []
        parts += [f"{self.edited} edited"] if self.edited else []
        return f"session of {actor}: {', '.join(parts)} — each a git commit{lost}"


@dataclass
class BulkUndo:
    """What one undo of a bulk decision did."""

    asked: int
    undone: int = 0
    back: Status | None = None
    skipped: list[str] = field(default_factory=list)
    stopped: str = ""

    def summary(self) -> str:
        text = f"undone: {self.undone} of {self.asked} decisions of the last bulk decision, one commit each"
        if self.back is not None:
            text += f" (back to {self.back})"
        if self.skipped:
            text += f"; {len(self.skipped)} skipped — " + "; ".join(self.skipped[:3])
        if self.stopped:
            text += f". Stopped: {self.stopped}; press u again to undo the rest"
        return text


class Reviewer:
    """One person's session: their name on every commit, and the decisions they can undo."""

    def __init__(self, store: BlueprintStore, actor: str):
        self.store = store
        self.actor = actor
        self.done: list[Done] = []
        self.batches = 0
        self.session = Session()

    def needs_reason(self, seen: Seen, status: Status) -> str:
        """Why this decision needs a reason (it overturns the rubric or another person), or ""."""
        return reason_required(seen.blueprint, status, self.actor)

    def decide(self, seen: Seen, status: Status, reason: str, *, batch: int | None = None) -> Blueprint:
        updated = self.store.decide(seen.blueprint.id, status, actor=self.actor, reason=reason, expected=seen.blueprint)
        self.done.append(Done(updated.id, updated.decisions[-1], batch))
        self.session.decided[str(status)] += 1
        return updated

    def new_batch(self) -> int:
        """An id for the decisions of one bulk decision, so that one undo takes them all back."""
        self.batches += 1
        return self.batches

    @property
    def last_is_bulk(self) -> bool:
        return bool(self.done) and self.done[-1].batch is not None

    def undo(self) -> tuple[Blueprint, Status]:
        """A new decision that takes back this session's last one; the file's history keeps both."""
        if not self.done:
            raise LookupError("nothing to undo in this session")
        last = self.done[-1]
        try:
            updated = self.store.undo(last.blueprint_id, last.decision, actor=self.actor)
        except ChangedSinceRead:
            self.done.pop()
            raise
        back = updated.status
        self.done.pop()
        self.session.undone += 1
        self.session.decided[str(last.decision.new_status)] -= 1
        self.session.decided += Counter()  # drops the statuses back at zero
        return updated, back

    def undo_bulk(self, wrote=lambda updated: None) -> BulkUndo:
        """Take back every decision of the last bulk decision, newest first, one commit each. One changed since is
        skipped (and named); a write the store refuses stops, and what is left is undone by the next call."""
        batch = self.done[-1].batch if self.last_is_bulk else None
        if batch is None:
            raise LookupError("the last decision of this session was not a bulk decision")
        result = BulkUndo(sum(1 for done in self.done if done.batch == batch))
        while self.done and self.done[-1].batch == batch:
            last = self.done[-1]
            try:
                updated, result.back = self.undo()
            except ChangedSinceRead:
                result.skipped.append(f"{last.blueprint_id} changed since the decision")
                continue
            except NOT_WRITTEN as error:
                result.stopped = str(error)
                break
            result.undone += 1
            wrote(updated)
        return result

    def save_edit(self, seen: Seen, texts: dict[str, str]) -> Blueprint:
        """Validate the edited fields against the schema, then write only if those fields are unchanged on disk.
        An edit after a rubric review marks that review stale (`v3ast review --stale` reviews it again)."""
        edited = {f: t for f, t in texts.items() if t != getattr(seen.blueprint, f)}
        validate_edit(seen.blueprint, edited)
        if not edited:
            return seen.blueprint

        def apply(current: Blueprint) -> Blueprint:
            moved = [f for f in edited if getattr(current, f) != getattr(seen.blueprint, f)]
            if moved:
                raise ChangedOnDisk(f"changed on disk while you edited: {', '.join(moved)}; your text is kept")
            updated = validate_edit(current, edited)
            if current.reviews:
                return updated.model_copy(update={"stale_review": stale_because(current, edited)})
            return updated

        reason = f"edited {', '.join(edited)}"
        updated = self.store.update(seen.blueprint.id, apply, actor=self.actor, reason=reason)
        self.session.edited += 1
        return updated


def stale_because(blueprint: Blueprint, edited: dict[str, str]) -> str:
    """Why the rubric review no longer describes the blueprint after `edited` (kept from an earlier edit too)."""
    parts = [f"moved from {blueprint.taxonomy_id} to {edited['taxonomy_id']}"] if "taxonomy_id" in edited else []
    text = [f for f in edited if f != "taxonomy_id"]
    parts += [f"edited {', '.join(text)}"] if text else []
    now = "; ".join(parts) + " after the rubric review"
    return f"{blueprint.stale_review}; {now}" if blueprint.stale_review else now


def conflict_message(store: BlueprintStore, seen: Seen) -> str:
    """Who changed what since the reviewer read the blueprint (the file as it is now, its last commit)."""
    blueprint_id = seen.blueprint.id
    try:
        what = what_changed(seen.blueprint, look(store, blueprint_id).blueprint)
        history = store.history(blueprint_id)
    except (LookupError, ValueError):
        return f"{blueprint_id} was removed or broken on disk since you read it; nothing written"
    last = f"; last commit by {history[0].author} at {history[0].when:%Y-%m-%d %H:%M}" if history else ""
    return f"{blueprint_id} changed on disk since you read it — {what}{last}. Nothing written: look again."


def what_changed(before: Blueprint, after: Blueprint) -> str:
    """What someone else did to a blueprint since `before` was read, in a few words."""
    news = (after.decisions[len(before.decisions):]
            if after.decisions[:len(before.decisions)] == before.decisions else [])
    parts = [f"{d.actor} decided {d.old_status} → {d.new_status} at {d.decided_at:%H:%M}"
             + (f" ({d.reason})" if d.reason else "") for d in news]
    if len(after.reviews) > len(before.reviews):
        review = after.reviews[-1]
        parts.append(f"{review.reviewer} reviewed it: {review.total}/30 → {review.band}")
    fields = [f for f in (*BLUEPRINT_FIELDS, "title") if getattr(before, f) != getattr(after, f)]
    if fields:
        parts.append(f"edited {', '.join(fields)}")
    if not parts and before.status != after.status:
        parts.append(f"status {before.status} → {after.status}")
    return "; ".join(parts) or "rewrote the file"


def validate_edit(blueprint: Blueprint, edited: dict[str, str]) -> Blueprint:
    unknown = set(edited) - set(BLUEPRINT_FIELDS)
    if unknown:
        raise ValueError(f"not editable here: {', '.join(sorted(unknown))} (editable: {', '.join(BLUEPRINT_FIELDS)})")
    blank = [f"{f}: must not be blank" for f, text in edited.items() if not text.strip()]
    if blank:
        raise InvalidEdit(blank)
    try:
        return Blueprint.model_validate({**blueprint.model_dump(), **edited})
    except ValidationError as error:
        raise InvalidEdit(plain_problems(error)) from None
