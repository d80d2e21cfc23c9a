"""Each pair's last mutation score (`v3ast pairs mutate`), filed beside its validation receipts and keyed like them:
a score measured before the pair's judged files or the judging code changed is stale, and says so."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from authoring.atomic import write_atomically
from authoring.judging import judging_digest
from authoring.pairs.format import TaskPair
from authoring.pairs.receipts import RECEIPTS_FOLDER, judged_hash


@dataclass(frozen=True)
class MutationScore:
    killed: int
    counted: int
    """Mutants that count: all but the ones recorded as equivalent."""
    equivalent: int
    survivors: list[str] = field(default_factory=list)
    pair: str = ""
    """The pair's judged hash when measured."""
    judging: str = ""
    measured_at: str = ""

    @property
    def percent(self) -> float | None:
        return 100 * self.killed / self.counted if self.counted else None

    def summary(self) -> str:
        if self.percent is None:
            return (f"no mutants that count ({self.equivalent} equivalent)" if self.equivalent
                    else "no mutants (no delivered file to mutate)")
        return (f"mutation score {self.percent:.0f} % ({self.killed} of {self.counted} killed"
                + (f", {self.equivalent} equivalent" if self.equivalent else "") + ")")


def score_file(pair: TaskPair) -> Path:
    return pair.folder.parent / RECEIPTS_FOLDER / f"{pair.id}.mutation.json"


def file_score(pair: TaskPair, measured: MutationScore) -> MutationScore:
    """`measured` filed for `pair`, keyed by the pair's judged files and the judging code as they are now."""
    score = replace(measured, survivors=sorted(measured.survivors), pair=judged_hash(pair.folder),
                    judging=judging_digest(), measured_at=datetime.now(UTC).isoformat(timespec="seconds"))
    write_atomically(score_file(pair), json.dumps(asdict(score), indent=1) + "\n")
    return score


def score_on_file(pair: TaskPair) -> MutationScore | None:
    try:
        return MutationScore(**json.loads(score_file(pair).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def is_current(pair: TaskPair, score: MutationScore) -> bool:
    return score.pair == judged_hash(pair.folder) and score.judging == judging_digest()


def describe(pair: TaskPair) -> str:
    """One line for a reader: the pair's score on file, and whether it still holds."""
    score = score_on_file(pair)
    if score is None:
        return f"{pair.id}: no mutation score on file (`v3ast pairs mutate {pair.id}`)"
    stale = "" if is_current(pair, score) else (
        f"; measured {score.measured_at}, before the pair or the judging code changed (`v3ast pairs mutate {pair.id}`)")
    return f"{pair.id}: {score.summary()}{stale}"
