"""Proposal rounds: ten concurrent candidate requests per round, stored as proposed blueprints."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from authoring.audit import deferred_interrupts
from authoring.blueprint import Blueprint, Provenance
from authoring.errors import BadInput
from authoring.stage1 import Provider, ledger
from authoring.stage1.calls import ModelCall, ask_all
from authoring.stage1.duplicates import fingerprint, nearest
from authoring.stage1.inputs import SourceReference, Workspace, load_sources, render_prompt
from authoring.stage1.schemas import BlueprintCandidate, candidate_answer_schema
from authoring.stage1.usage import Usage
from authoring.store import BlueprintStore, Filter
from authoring.taxonomy import Cell
from authoring.taxonomy import cell as known_cell

PROMPT_VERSION = "propose.v1"
CANDIDATES_PER_ROUND = 10


@dataclass
class Attempt(ModelCall):
    slot: int = 0

    @property
    def candidate(self) -> BlueprintCandidate | None:
        return self.answer


@dataclass
class RoundResult:
    cell: str
    round: int
    created: list[Blueprint] = field(default_factory=list)
    failed: list[Path] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)

    @property
    def duplicates(self) -> list[Blueprint]:
        return [b for b in self.created if b.duplicate_of]


Progress = Callable[[RoundResult, int, str], None]
"""Told after each candidate of a round: the round so far, how many candidates it asks for, what happened."""


def propose(provider: Provider, workspace: Workspace, cell_id: str, rounds: int = 1, concurrency: int = 10,
            candidates: int = CANDIDATES_PER_ROUND, progress: Progress | None = None) -> list[RoundResult]:
    the_cell = known_cell(cell_id)
    if rounds < 1 or concurrency < 1 or candidates < 1:
        raise BadInput("--rounds, --concurrency and the number of candidates must be at least 1")
    sources = load_sources(workspace.sources)
    store = BlueprintStore(workspace.blueprints)
    return [run_round(provider, workspace, store, the_cell, sources, concurrency, candidates, progress)
            for _ in range(rounds)]


def run_round(provider: Provider, workspace: Workspace, store: BlueprintStore, the_cell: Cell,
              sources: dict[str, SourceReference], concurrency: int, candidates: int,
              progress: Progress | None = None) -> RoundResult:
    """Each candidate is stored (file + commit) as its answer arrives."""
    existing = store.list(Filter(cell=the_cell.id))
    number = 1 + max((b.provenance.round or 0 for b in existing), default=0)
    focus = focus_order(the_cell, sources)
    attempts = [
        Attempt(render_prompt(
            workspace.templates, PROMPT_VERSION, cell=the_cell, slot=slot, slots=candidates, round=number,
            focus_source=focus[(slot - 1) % len(focus)], sources=focus,
            existing_titles=sorted(b.title for b in existing)), slot=slot)
        for slot in range(1, candidates + 1)
    ]
    result = RoundResult(the_cell.id, number)
    seen = [(b.id, fingerprint(b.title, b.engineering_task)) for b in existing]

    def take(attempt: Attempt) -> None:
        with deferred_interrupts():  # a candidate stored is also counted and in the ledger
            result.usage += attempt.usage
            blueprint = store_candidate(provider, store, the_cell, number, attempt, seen) if attempt.candidate else None
            if blueprint is None:
                result.failed.append(record_failure(provider, workspace, the_cell, number, attempt))
                outcome = "malformed" if attempt.raw_texts else "failed"
            else:
                result.created.append(blueprint)
                outcome = "duplicate" if blueprint.duplicate_of else "ok"
            ledger.append(workspace.ledger, ledger.LedgerEntry(
                cell=the_cell.id, purpose="propose", provider=provider.name, outcome=outcome,
                blueprint_id=blueprint.id if blueprint else None, usage=attempt.usage))
        if progress is not None:
            mark = f" (near-duplicate of {blueprint.duplicate_of})" if blueprint and blueprint.duplicate_of else ""
            progress(result, candidates, f"{blueprint.id}{mark}" if blueprint
                     else f"candidate {attempt.slot} failed ({attempt.error}); record in {result.failed[-1]}")

    ask_all(provider, attempts, candidate_answer_schema(list(sources)), concurrency, on_done=take)
    return result


def store_candidate(provider: Provider, store: BlueprintStore, the_cell: Cell, number: int, attempt: Attempt,
                    seen: list[tuple[str, frozenset[str]]]) -> Blueprint | None:
    candidate = attempt.candidate
    marks = fingerprint(candidate.title, candidate.engineering_task)
    try:
        blueprint = Blueprint(
            id=unused_id(store, blueprint_id(the_cell.id, candidate)),
            taxonomy_id=the_cell.id,
            **candidate.model_dump(),
            provenance=Provenance(model=provider.name, prompt_version=PROMPT_VERSION, round=number),
            duplicate_of=nearest(marks, seen),
        )
        store.create(blueprint, actor=provider.name,
                     reason=f"Stage I round {number} of {the_cell.id}, candidate {attempt.slot}, "
                            f"prompt {PROMPT_VERSION}")
    except ValueError as error:
        attempt.error = f"could not store the candidate: {' '.join(str(error).split())}"
        return None
    seen.append((blueprint.id, marks))
    return blueprint


def record_failure(provider: Provider, workspace: Workspace, the_cell: Cell, number: int, attempt: Attempt) -> Path:
    return ledger.write_failure(workspace.failed, f"{the_cell.id}-r{number}-c{attempt.slot}", {
        "cell": the_cell.id, "round": number, "slot": attempt.slot, "provider": provider.name,
        "prompt_version": PROMPT_VERSION, "error": attempt.error, "raw_texts": attempt.raw_texts,
        "candidate": attempt.candidate.model_dump() if attempt.candidate else None,
        "usage": attempt.usage.model_dump(),
    })


def focus_order(the_cell: Cell, sources: dict[str, SourceReference]) -> list[SourceReference]:
    """Sources that ground the cell's risk first, so each slot of a round starts from a different one."""
    return sorted(sources.values(), key=lambda s: (the_cell.risk.id not in s.risks, s.id))


def blueprint_id(cell_id: str, candidate: BlueprintCandidate) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", candidate.title.lower()).strip("-")
    if len(slug) > 40:
        slug = slug[:41].rsplit("-", 1)[0]
    slug = slug or "candidate"
    digest = hashlib.sha256(f"{cell_id}\n{candidate.title}\n{candidate.engineering_task}".encode()).hexdigest()[:6]
    return f"{cell_id.lower()}-{slug}-{digest}"


def unused_id(store: BlueprintStore, wanted: str) -> str:
    candidate, suffix = wanted, 2
    while store.exists(candidate):
        candidate, suffix = f"{wanted}-{suffix}", suffix + 1
    return candidate
