"""Rubric review: an LLM scores proposed blueprints on the rubric's dimensions; the band moves their status."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from authoring.audit import deferred_interrupts
from authoring.blueprint import Blueprint, DimensionScore, RubricReview, Status
from authoring.errors import BadInput
from authoring.stage1 import Provider, ledger
from authoring.stage1.calls import ModelCall, ask_all
from authoring.stage1.inputs import Rubric, Workspace, load_rubric, load_sources, render_prompt
from authoring.stage1.schemas import RubricReviewAnswer, review_answer_schema
from authoring.stage1.usage import Usage
from authoring.store import BlueprintStore, WriteFailed
from authoring.taxonomy import cell as known_cell

PROMPT_VERSION = "review.v1"


@dataclass
class Assessment(ModelCall):
    blueprint: Blueprint | None = None


@dataclass
class ReviewResult:
    total: int = 0
    """Blueprints chosen for review."""
    reviewed: list[Blueprint] = field(default_factory=list)
    failed: list[Path] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    interrupted: bool = False
    """Stopped (Ctrl-C, SIGTERM) before every answer came: the rest are untouched, still proposed."""

    @property
    def done(self) -> int:
        return len(self.reviewed) + len(self.failed)


def review(provider: Provider, workspace: Workspace, ids: list[str] = (), pending: bool = False,
           concurrency: int = 10, progress: Callable[[ReviewResult, str], None] | None = None,
           stale: bool = False) -> ReviewResult:
    """Each answer is recorded (file + commit) as soon as it arrives; an interruption keeps those and
    leaves the others untouched."""
    store = BlueprintStore(workspace.blueprints)
    rubric = load_rubric(workspace.rubric)
    sources = load_sources(workspace.sources)
    targets = select(store, ids, pending, stale)
    assessments = [
        Assessment(render_prompt(workspace.templates, PROMPT_VERSION, rubric=rubric, blueprint=b,
                                 cell=known_cell(b.taxonomy_id), source=sources.get(b.source_reference)), blueprint=b)
        for b in targets
    ]
    result = ReviewResult(total=len(assessments))

    def record(assessment: Assessment) -> None:
        with deferred_interrupts():  # a review recorded is also counted and in the ledger
            write(assessment)

    def write(assessment: Assessment) -> None:
        result.usage += assessment.usage
        blueprint = assessment.blueprint
        if assessment.answer is not None:
            try:
                stored = store.record_review(blueprint.id, to_review(provider, rubric, assessment.answer),
                                             actor=provider.name)
                result.reviewed.append(stored)
            except (ValueError, LookupError, WriteFailed) as error:
                assessment.error = f"answer not recorded: {error}"
        if assessment.error and blueprint.id not in {b.id for b in result.reviewed}:
            result.failed.append(ledger.write_failure(workspace.failed, f"review-{blueprint.id}", {
                "blueprint_id": blueprint.id, "provider": provider.name, "prompt_version": PROMPT_VERSION,
                "rubric_version": rubric.version, "error": assessment.error, "raw_texts": assessment.raw_texts,
                "answer": assessment.answer.model_dump() if assessment.answer else None,
                "usage": assessment.usage.model_dump()}))
        ledger.append(workspace.ledger, ledger.LedgerEntry(
            cell=blueprint.taxonomy_id, purpose="review", provider=provider.name, outcome=assessment.outcome,
            blueprint_id=blueprint.id, usage=assessment.usage))
        if progress is not None:
            recorded = result.reviewed[-1] if result.reviewed and result.reviewed[-1].id == blueprint.id else None
            progress(result, f"{blueprint.id}: {recorded.latest_review.total}/30 → {recorded.status}" if recorded
                     else f"{blueprint.id}: failed ({assessment.error}); record in {result.failed[-1]}")

    try:
        ask_all(provider, assessments, review_answer_schema(rubric.dimension_ids), concurrency, on_done=record)
    except KeyboardInterrupt:
        result.interrupted = True
    return result


def select(store: BlueprintStore, ids: list[str], pending: bool, stale: bool = False) -> list[Blueprint]:
    """The blueprints named (each proposed, or edited since its review), every proposed one with `pending`,
    every one edited since its review with `stale`."""
    if not ids and not pending and not stale:
        raise BadInput("nothing to review: give blueprint ids, --pending or --stale")
    chosen = {b.id: b for b in (store.get(i) for i in ids)}
    refused = [f"{b.id} is {b.status}" for b in chosen.values() if b.status != Status.PROPOSED and not b.stale_review]
    if refused:
        raise BadInput(f"only proposed blueprints, or ones edited since their review, can be reviewed "
                         f"({'; '.join(refused)})")
    everything = store.list() if pending or stale else []
    chosen.update({b.id: b for b in everything
                   if (pending and b.status == Status.PROPOSED) or (stale and b.stale_review)})
    return list(chosen.values())


def to_review(provider: Provider, rubric: Rubric, answer: RubricReviewAnswer) -> RubricReview:
    by_dimension = answer.scores()
    return RubricReview(
        reviewer=provider.name, rubric_version=rubric.version,
        scores=[DimensionScore(dimension=d, score=by_dimension[d].score, rationale=by_dimension[d].rationale)
                for d in rubric.dimension_ids],
    )
