"""Stage II's adversarial review: a pair that passed lint and validation is attacked before it is published, and
every disagreement goes back to the agent as a failed reference path of its repair round."""

from __future__ import annotations

from pathlib import Path

import docker

from authoring.pairs.format import load_pair
from authoring.redteam.prompt import templates_folder
from authoring.redteam.proposers import DemoProposer, ModelProposer, model_provider
from authoring.redteam.review import review
from authoring.stage1.providers import ProviderConfig
from authoring.stage2.checks import OUTPUT_LINES, PairCheck, ReferenceResult
from authoring.stage2.model import ModelSettings

PER_KIND = 2
SCRIPTED_AGENTS = ("scripted", "scripted-demo")
"""Model names of the scripted Stage II agents (tests, `implement --provider demo`): no model to propose with, so
the red team is the demo proposals."""


def proposer_for(settings: ModelSettings, templates: Path, pair_id: str):
    folder = templates_folder(templates)
    if settings.model in SCRIPTED_AGENTS:
        return DemoProposer(folder / "demo", pair_id)
    return ModelProposer(model_provider(settings.provider, ProviderConfig.reaching(settings), settings.key()), folder)


def red_team_check(client: docker.DockerClient, folder: Path, check: PairCheck, settings: ModelSettings, *,
                   templates: Path, records: Path, base_image: str, workers: int) -> PairCheck:
    """The check with one failed reference result per disagreement (or run error) of the red team, whose
    session is kept under `records`; a check that did not pass is returned as it is."""
    if not check.passed:
        return check
    pair = load_pair(folder)
    proposer = proposer_for(settings, templates, pair.id)
    try:
        _, rows = review(client, records, pair, proposer, per_kind=PER_KIND, workers=workers, base_image=base_image)
    finally:
        proposer.close()
    for row in rows:
        if row.run is None or row.status not in ("DISAGREE", "error"):
            continue
        proposal, run = row.proposal, row.run
        evidence = (f"proposed by the red-team review, not in your pair: {proposal.rationale} — detectors: "
                    f"{run.error or run.evidence} — its commands (add it as this reference path once the verdict "
                    f"is right, or fix the detector):\n{proposal.script}")
        last = run.steps[-1] if run.steps else {}
        output = "\n".join(str(last.get("output", "")).rstrip().splitlines()[-OUTPUT_LINES:])
        check.references.append(ReferenceResult(str(proposal.side), proposal.reference, run.expected,
                                                run.observed or "error", False, evidence, last.get("exit_code"),
                                                output, run.seconds))
    return check
