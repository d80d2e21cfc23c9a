"""Stage II's mutation gate: a pair that passed lint, validation and the red team must also tell its correct paths
from almost-right mutants of the code they deliver. Below the floor, every surviving mutant goes back to the agent
as a failed reference path of its repair round; the score is filed beside the pair's receipts either way."""

from __future__ import annotations

from pathlib import Path

import docker

from authoring.pairs.format import load_pair
from authoring.pairs.mutate import MutationReport, derive_mutants, run_mutants
from authoring.stage2.checks import PairCheck, ReferenceResult


def mutation_check(client: docker.DockerClient, folder: Path, check: PairCheck, *, floor: float, limit: int,
                   base_image: str, workers: int) -> PairCheck:
    """The check with the pair's mutation score, and one failed reference result per survivor when the score is
    below `floor` percent; a check that did not pass, or a floor of 0, is returned as it is."""
    if not check.passed or floor <= 0:
        return check
    pair = load_pair(folder)
    report = run_mutants(client, pair, derive_mutants(client, pair, base_image, limit=limit), base_image,
                         workers=workers)
    report.file(pair)
    check.mutation = report.summary()
    if report.score is not None and 100 * report.score < floor:
        check.references += survivor_results(report, floor)
    return check


def survivor_results(report: MutationReport, floor: float) -> list[ReferenceResult]:
    results = []
    for survivor in report.survivors:
        change = survivor.mutant.change
        evidence = (f"{report.summary()}, below the floor of {floor:g} %: this mutant of the code your "
                    f"{survivor.mutant.side}/reference/{survivor.mutant.reference}.sh delivers came out "
                    f"{survivor.observed or 'error'}, like the correct path ({change.operator} at {change.path}:"
                    f"{change.line}: {change.description}). Make the detectors tell it apart, or, if it cannot change "
                    f"what the user asked for, record it in mutants.yaml under `equivalent:` as "
                    f"'{survivor.mutant.id}': <why>.")
        results.append(ReferenceResult(str(survivor.mutant.side), survivor.mutant.name,
                                       str(survivor.expected), str(survivor.observed or "error"), False, evidence))
    return results
