"""Is the agent's pair acceptable? It must load, pass the lints, and every reference path must yield its outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import docker

from authoring.pairs.format import PairFormatError, load_pair
from authoring.pairs.lint import lint_pair
from authoring.pairs.validate import ReferenceCheck, validate_pairs

OUTPUT_LINES = 15


@dataclass
class ReferenceResult:
    side: str
    reference: str
    expected: str
    observed: str
    passed: bool
    evidence: str
    exit_code: int | None = None
    output: str = ""
    seconds: float | None = None

    @classmethod
    def of(cls, check: ReferenceCheck) -> ReferenceResult:
        step = check.run.report.steps[0] if check.run and check.run.report.steps else {}
        tail = "\n".join(str(step.get("output", "")).rstrip().splitlines()[-OUTPUT_LINES:])
        return cls(str(check.side), check.reference, str(check.expected), str(check.observed or "error"),
                   check.passed, check.evidence, step.get("exit_code"), tail,
                   round(check.run.seconds, 2) if check.run else None)


@dataclass
class PairCheck:
    format_problems: list[str] = field(default_factory=list)
    lint_problems: list[str] = field(default_factory=list)
    references: list[ReferenceResult] = field(default_factory=list)
    mutation: str = ""
    """The mutation score, once the pair has passed everything else (mutation_gate.py)."""

    @property
    def passed(self) -> bool:
        return not self.format_problems and not self.lint_problems and bool(self.references) and all(
            r.passed for r in self.references)

    def summary(self) -> str:
        if self.format_problems:
            return f"{len(self.format_problems)} format problem(s), first: {self.format_problems[0]}"
        failed = [r for r in self.references if not r.passed]
        parts = [f"{len(self.lint_problems)} lint problem(s)"] if self.lint_problems else []
        parts += [f"{r.side}/{r.reference}: expected {r.expected}, observed {r.observed} ({r.evidence})"
                  for r in failed]
        return "; ".join(parts) or (f"all {len(self.references)} reference paths as expected, lint clean"
                                    + (f", {self.mutation}" if self.mutation else ""))


def check_pair(client: docker.DockerClient, folder: Path, *, base_image: str, workers: int = 2) -> PairCheck:
    prefix = f"{folder}/"
    try:
        pair = load_pair(folder)
    except PairFormatError as error:
        return PairCheck(format_problems=[problem.replace(prefix, "") for problem in error.problems])
    lint_problems = [str(problem).replace(prefix, "") for problem in lint_pair(pair)]
    references = [ReferenceResult.of(c) for c in validate_pairs(client, [pair], base_image=base_image, workers=workers)]
    return PairCheck(lint_problems=lint_problems, references=references)
