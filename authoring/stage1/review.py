"""Rubric review: an LLM scores proposed blueprints on the rubric's dimensions; the band moves their status."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from authoring.blueprint import Blueprint, DimensionScore, RubricReview, Status
from authoring.stage1 import MalformedOutput, Provider, ProviderError
from authoring.stage1 import ledger
from authoring.stage1.inputs import Prompt, Rubric, Workspace, load_rubric, load_sources, render_prompt
from authoring.stage1.schemas import RubricReviewAnswer, review_answer_schema
from authoring.stage1.usage import Usage
from authoring.store import BlueprintStore, Filter
from authoring.taxonomy import cell as known_cell

PROMPT_VERSION = "review.v1"


@dataclass
class Assessment:
    blueprint: Blueprint
    prompt: Prompt
    answer: RubricReviewAnswer | None = None
    usage: Usage = field(default_factory=Usage)
    error: str = ""
    raw_texts: list[str] = field(default_factory=list)


@dataclass
class ReviewResult:
    reviewed: list[Blueprint] = field(default_factory=list)
    failed: list[Path] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)


def review(provider: Provider, workspace: Workspace, ids: list[str] = (), pending: bool = False,
           concurrency: int = 10) -> ReviewResult:
    if concurrency < 1:
        raise ValueError("--concurrency must be at least 1")
    store = BlueprintStore(workspace.blueprints)
    rubric = load_rubric(workspace.rubric)
    sources = load_sources(workspace.sources)
    targets = select(store, ids, pending)
    assessments = [
        Assessment(b, render_prompt(workspace.templates, PROMPT_VERSION, rubric=rubric, blueprint=b,
                                    cell=known_cell(b.taxonomy_id), source=sources.get(b.source_reference)))
        for b in targets
    ]
    schema = review_answer_schema(rubric.dimension_ids)
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(lambda assessment: ask(provider, assessment, schema), assessments))

    result = ReviewResult()
    for assessment in assessments:
        result.usage += assessment.usage
        blueprint = assessment.blueprint
        if assessment.answer is None:
            result.failed.append(ledger.write_failure(workspace.failed, f"review-{blueprint.id}", {
                "blueprint_id": blueprint.id, "provider": provider.name, "prompt_version": PROMPT_VERSION,
                "rubric_version": rubric.version, "error": assessment.error, "raw_texts": assessment.raw_texts,
                "usage": assessment.usage.model_dump()}))
        else:
            stored = store.record_review(blueprint.id, to_review(provider, rubric, assessment.answer), actor=provider.name)
            result.reviewed.append(stored)
        outcome = "ok" if assessment.answer else ("malformed" if assessment.raw_texts else "failed")
        ledger.append(workspace.ledger, ledger.LedgerEntry(
            cell=blueprint.taxonomy_id, purpose="review", provider=provider.name, outcome=outcome,
            blueprint_id=blueprint.id, usage=assessment.usage))
    return result


def select(store: BlueprintStore, ids: list[str], pending: bool) -> list[Blueprint]:
    if not ids and not pending:
        raise ValueError("nothing to review: give blueprint ids or --pending")
    chosen = {b.id: b for b in (store.get(i) for i in ids)}
    not_proposed = [f"{b.id} is {b.status}" for b in chosen.values() if b.status != Status.PROPOSED]
    if not_proposed:
        raise ValueError(f"only proposed blueprints can be reviewed ({'; '.join(not_proposed)})")
    if pending:
        chosen.update({b.id: b for b in store.list(Filter(status=Status.PROPOSED))})
    return list(chosen.values())


def ask(provider: Provider, assessment: Assessment, schema: type[RubricReviewAnswer]) -> None:
    try:
        assessment.answer, assessment.usage = provider.complete_structured(
            assessment.prompt.system, assessment.prompt.user, schema)
    except MalformedOutput as error:
        assessment.error, assessment.raw_texts, assessment.usage = str(error), error.raw_texts, error.usage
    except ProviderError as error:
        assessment.error, assessment.usage = str(error), error.usage


def to_review(provider: Provider, rubric: Rubric, answer: RubricReviewAnswer) -> RubricReview:
    by_dimension = {s.dimension: s for s in answer.scores}
    return RubricReview(
        reviewer=provider.name, rubric_version=rubric.version,
        scores=[DimensionScore(dimension=d, score=by_dimension[d].score, rationale=by_dimension[d].rationale)
                for d in rubric.dimension_ids],
    )
