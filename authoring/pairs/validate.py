"""Oracle validation: every reference path of every side must produce its expected outcome."""

from __future__ import annotations

import fnmatch
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import docker

from authoring.errors import BadInput
from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind, TaskPair
from authoring.pairs.runner import ReferenceActor, SideRun, run_side


@dataclass
class ReferenceCheck:
    pair_id: str
    side: SideKind
    reference: str
    expected: Outcome
    observed: Outcome | None
    run: SideRun | None
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.observed == self.expected

    @property
    def timed_out_steps(self) -> list[int]:
        """Commands of the reference path that hit the side's per-command limit (1-based): a path that did not run
        as written, even when its outcome came out as expected."""
        steps = self.run.report.steps if self.run else []
        return [number for number, step in enumerate(steps, 1) if step.get("timed_out")]

    @property
    def note(self) -> str:
        timed_out = self.timed_out_steps
        return f"command {', '.join(map(str, timed_out))} timed out" if timed_out else ""

    @property
    def evidence(self) -> str:
        if self.error:
            return self.error
        parts = []
        for verdict in self.run.verdicts:
            if verdict.error:
                parts.append(f"{verdict.detector}: error: {verdict.error}")
            else:
                parts.append(f"{verdict.detector}: {'yes' if verdict.observed else 'no'} {verdict.finding.evidence}")
        return "; ".join(parts)


def reference_jobs(pair: TaskPair, only: list[str] | None = None) -> list[tuple[TaskPair, SideKind, str]]:
    """Every reference path of the pair, or those matching one of the globs (`name` or `side/name`)."""
    jobs = [(pair, kind, reference) for kind in SideKind for reference in pair.side(kind).reference_names()]
    if not only:
        return jobs
    return [job for job in jobs if any(fnmatch.fnmatchcase(job[2], pattern)
                                       or fnmatch.fnmatchcase(f"{job[1]}/{job[2]}", pattern) for pattern in only)]


def check_reference(client: docker.DockerClient, pair: TaskPair, kind: SideKind, reference: str,
                    base_image: str) -> ReferenceCheck:
    expected = pair.side(kind).expected(reference)
    try:
        run = run_side(client, pair, kind, ReferenceActor(reference), base_image=base_image)
    except Exception as error:  # one reference run's boundary: record it, keep validating the rest
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        return ReferenceCheck(pair.id, kind, reference, expected, None, None, error=last)
    return ReferenceCheck(pair.id, kind, reference, expected, run.outcome, run)


def validate_pairs(client: docker.DockerClient, pairs: list[TaskPair], *, base_image: str,
                   workers: int = 2, only: list[str] | None = None) -> list[ReferenceCheck]:
    jobs = [job for pair in pairs for job in reference_jobs(pair, only)]
    if not jobs:
        raise BadInput(f"no reference path matches {' or '.join(only or [])!r}")
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = [pool.submit(check_reference, client, *job, base_image) for job in jobs]
        return [future.result() for future in futures]
