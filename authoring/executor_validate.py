"""Oracle validation through an executor: each reference run is a job shipping its pair."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import docker

from authoring.errors import BadInput
from authoring.executor import (
    BatchIncomplete,
    Done,
    EngineLost,
    Executor,
    Job,
    Shipment,
    engine_answers,
    resume_command,
    stop_if_engine_lost,
)
from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind, TaskPair, content_hash, load_pair
from authoring.pairs.validate import ReferenceCheck, check_reference, reference_jobs


def check_shipped(kind: SideKind, reference: str, base_image: str, client: docker.DockerClient, folders: list[Path],
                  stop) -> ReferenceCheck:
    check = check_reference(client, load_pair(folders[0]), kind, reference, base_image)
    if (check.error or check.observed is Outcome.UNRESOLVED) and (why := engine_answers(client)):
        raise EngineLost(f"the Docker engine stopped answering during the run ({why})")
    return check


def validate_on(executor: Executor, pairs: list[TaskPair], *, base_image: str, workers: int = 2,
                only: list[str] | None = None, planned: Callable[[int], None] = lambda count: None,
                checked: Callable[[ReferenceCheck], None] = lambda check: None,
                repeat: int = 1, keep: Callable[[TaskPair, SideKind, str], bool] = lambda *path: True,
                ) -> list[ReferenceCheck]:
    """The same checks as `validate_pairs`, in the same order, wherever the executor runs them (each path `repeat`
    times, the rounds one after another); `keep` chooses among the paths `only` matches; `planned` hears how many
    there are, `checked` each one as it finishes."""
    references = [job for pair in pairs for job in reference_jobs(pair, only) if keep(*job)] * max(1, repeat)
    if not references:
        raise BadInput(f"no reference path matches {' or '.join(only or [])!r}")
    shipments = {pair.id: Shipment(pair.folder, content_hash(pair.folder)) for pair in pairs}
    jobs = [Job((pair, kind, reference), partial(check_shipped, kind, reference, base_image), (shipments[pair.id],))
            for pair, kind, reference in references]
    results: dict[int, ReferenceCheck] = {}
    planned(len(jobs))

    def done(finished: Done) -> None:
        pair, kind, reference = finished.job.key
        results[id(finished.job)] = finished.value if finished.error is None else ReferenceCheck(
            pair.id, kind, reference, pair.side(kind).expected(reference), None, None, error=finished.error_line())
        checked(results[id(finished.job)])
        stop_if_engine_lost(executor, finished)

    try:
        executor.run(jobs, done, workers=workers, base_image=base_image)
    except EngineLost as lost:
        checked_count = sum(1 for check in results.values() if check.run is not None)
        raise BatchIncomplete(f"validation stopped short: {checked_count} of {len(jobs)} reference path(s) checked "
                              f"before an infrastructure error ({lost}); nothing left is a verdict; those checked have "
                              f"receipts: go on with {resume_command(also='--changed')}") from None
    return [results[id(job)] for job in jobs]


def unstable_paths(checks: list[ReferenceCheck]) -> list[str]:
    """Reference paths run more than once whose outcomes differ between runs (a race in the pair or its detectors),
    each as `pair side/reference: OUTCOME ×n, …`."""
    outcomes: dict[tuple[str, str, str], list[str]] = {}
    for check in checks:
        path = (check.pair_id, str(check.side), check.reference)
        outcomes.setdefault(path, []).append(str(check.observed or "error"))
    return [f"{pair} {side}/{reference}: " + ", ".join(f"{name} ×{seen.count(name)}" for name in dict.fromkeys(seen))
            for (pair, side, reference), seen in outcomes.items() if len(set(seen)) > 1]
