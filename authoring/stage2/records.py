"""What an attempt leaves under runs/stage2/<blueprint>/attempt-N/: rounds, trajectory, result and a report."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from authoring.blueprint import BLUEPRINT_FIELDS, Blueprint

FINISHED = ("implemented", "failed")


def blueprint_hash(blueprint: Blueprint) -> str:
    """sha256 of the blueprint's content (id, title, the eight fields); status and reviews do not count."""
    content = blueprint.model_dump(mode="json", include={"id", "title", *BLUEPRINT_FIELDS})
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class AttemptPaths:
    folder: Path
    pair_id: str

    @property
    def number(self) -> int:
        return int(self.folder.name.removeprefix("attempt-"))

    @property
    def scaffold(self) -> Path:
        return self.folder / "scaffold" / self.pair_id

    def round_folder(self, number: int) -> Path:
        return self.folder / f"round-{number}"

    def round_pair(self, number: int) -> Path:
        return self.round_folder(number) / self.pair_id

    def round_check(self, number: int) -> Path:
        return self.round_folder(number) / "check.json"

    @property
    def guide(self) -> Path:
        return self.folder / "guide.md"

    @property
    def trajectory(self) -> Path:
        return self.folder / "trajectory.json"

    @property
    def state(self) -> Path:
        """Written when the attempt starts: the build sandbox's run id, to clean up after a crash."""
        return self.folder / "state.json"

    @property
    def result(self) -> Path:
        """Written when the attempt ends; an attempt folder without it was interrupted."""
        return self.folder / "result.json"

    @property
    def report(self) -> Path:
        return self.folder / "report.md"


def attempts(runs_root: Path, pair_id: str) -> list[AttemptPaths]:
    folder = runs_root / pair_id
    found = [p for p in folder.glob("attempt-*") if p.is_dir() and p.name.removeprefix("attempt-").isdigit()]
    return sorted((AttemptPaths(p, pair_id) for p in found), key=lambda a: a.number)


def next_attempt(runs_root: Path, pair_id: str) -> AttemptPaths:
    existing = attempts(runs_root, pair_id)
    number = existing[-1].number + 1 if existing else 1
    return AttemptPaths(runs_root / pair_id / f"attempt-{number}", pair_id)


class RoundRecord(BaseModel):
    round: int
    exit_status: str
    """How the agent's turn ended: Submitted, LimitsExceeded, RepeatedFormatError, ..."""
    passed: bool
    summary: str
    format_problems: int = 0
    lint_problems: int = 0
    references_passed: int = 0
    references: int = 0
    check_seconds: float = 0.0


class AttemptResult(BaseModel):
    blueprint_id: str
    attempt: int
    status: Literal["implemented", "failed", "error"]
    """implemented: the pair passed and was published; failed: it never passed; error: the attempt broke."""
    reason: str = ""
    """One line: why it failed or broke (empty when implemented)."""
    rounds: list[RoundRecord] = Field(default_factory=list)
    model: dict[str, Any] = Field(default_factory=dict)
    guide_version: str = ""
    blueprint_hash: str = ""
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0
    traceback: str = ""
    pair: str = ""
    """Where the passing pair was published (generated_tasks/<id>)."""

    @property
    def repair_rounds(self) -> int:
        return max(0, len(self.rounds) - 1)


def write_result(paths: AttemptPaths, result: AttemptResult) -> None:
    paths.report.write_text(markdown_report(paths, result), encoding="utf-8")
    paths.result.write_text(result.model_dump_json(indent=2), encoding="utf-8")


def read_result(paths: AttemptPaths) -> AttemptResult | None:
    if not paths.result.is_file():
        return None
    return AttemptResult.model_validate_json(paths.result.read_text(encoding="utf-8"))


def markdown_report(paths: AttemptPaths, result: AttemptResult) -> str:
    lines = [f"# {result.blueprint_id} · attempt {result.attempt}: {result.status}", ""]
    if result.reason:
        lines += [f"**Why:** {result.reason}", ""]
    lines += [f"- model: `{result.model.get('provider')}/{result.model.get('model')}` · guide {result.guide_version}",
              f"- {result.model_calls} model calls, {result.input_tokens} input "
              f"+ {result.output_tokens} output tokens, "
              f"${result.cost_usd:.4f}, {result.seconds:.0f} s",
              f"- trajectory: `{paths.trajectory.name}` · guide as sent: `{paths.guide.name}`", ""]
    if result.pair:
        lines += [f"Published to `{result.pair}`.", ""]
    lines += ["| round | agent ended | passed | format | lint | references | summary |",
              "|---|---|---|---|---|---|---|"]
    for r in result.rounds:
        lines.append(f"| {r.round} | {r.exit_status} | {'yes' if r.passed else 'no'} | {r.format_problems} | "
                     f"{r.lint_problems} | {r.references_passed}/{r.references} | {r.summary.replace('|', '/')} |")
    if result.rounds:
        last = result.rounds[-1].round
        lines += ["", f"The last round's pair is in `{paths.round_pair(last).relative_to(paths.folder)}`; "
                      "every problem with its evidence is in "
                      f"`{paths.round_check(last).relative_to(paths.folder)}`."]
    if result.traceback:
        lines += ["", "```", result.traceback.rstrip(), "```"]
    return "\n".join(lines) + "\n"
