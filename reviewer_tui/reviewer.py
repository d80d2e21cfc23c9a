"""What a reviewer does to blueprints — decide, undo, edit — with every write checked against what they saw."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from authoring.blueprint import BLUEPRINT_FIELDS, Blueprint, HumanDecision, Status
from authoring.blueprint_files import parse_blueprint
from authoring.store import BlueprintStore, ChangedSinceRead, WriteFailed, overturns

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


def look(store: BlueprintStore, blueprint_id: str) -> Seen:
    path = store.find(blueprint_id)
    data = path.read_bytes()
    return Seen(parse_blueprint(path, data.decode("utf-8")), path, hashlib.sha256(data).hexdigest())


def changed_since(store: BlueprintStore, seen: Seen) -> bool:
    try:
        return look(store, seen.blueprint.id).digest != seen.digest
    except Exception:
        return True


class Reviewer:
    """One person's session: their name on every commit, and the decisions they can undo."""

    def __init__(self, store: BlueprintStore, actor: str):
        self.store = store
        self.actor = actor
        self.done: list[Done] = []

    def needs_reason(self, seen: Seen, status: Status) -> bool:
        return overturns(seen.blueprint, status)

    def decide(self, seen: Seen, status: Status, reason: str) -> Blueprint:
        updated = self.store.decide(seen.blueprint.id, status, actor=self.actor, reason=reason, expected=seen.blueprint)
        self.done.append(Done(updated.id, updated.decisions[-1]))
        return updated

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
        return updated, back

    def save_edit(self, seen: Seen, texts: dict[str, str]) -> Blueprint:
        """Validate the edited fields against the schema, then write only if those fields are unchanged on disk."""
        edited = {f: t for f, t in texts.items() if t != getattr(seen.blueprint, f)}
        validate_edit(seen.blueprint, edited)
        if not edited:
            return seen.blueprint

        def apply(current: Blueprint) -> Blueprint:
            moved = [f for f in edited if getattr(current, f) != getattr(seen.blueprint, f)]
            if moved:
                raise ChangedOnDisk(f"changed on disk while you edited: {', '.join(moved)}; your text is kept")
            return validate_edit(current, edited)

        reason = f"edited {', '.join(edited)}"
        return self.store.update(seen.blueprint.id, apply, actor=self.actor, reason=reason)


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
        raise InvalidEdit(
            [f"{'.'.join(str(p) for p in e['loc']) or '(blueprint)'}: {e['msg']}" for e in error.errors()]
        ) from None
