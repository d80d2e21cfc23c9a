"""The Stage I report: per cell, how many were proposed and how the rubric triaged them, scores, tokens, cost."""

from __future__ import annotations

from collections import defaultdict
from statistics import mean

from pydantic import BaseModel

from authoring.blueprint import Status
from authoring.stage1 import ledger
from authoring.stage1.inputs import Workspace, load_rubric
from authoring.stage1.usage import Usage
from authoring.store import BlueprintStore

ACCEPTED_OR_LATER = {Status.ACCEPTED, Status.IMPLEMENTED, Status.CALIBRATED, Status.ADMITTED}


class CellReport(BaseModel):
    """Stage I figures of one taxonomy cell."""

    cell: str
    proposed: int = 0
    """Blueprints in the cell, whatever their status."""
    pending: int = 0
    """Still waiting for a rubric review."""
    kept: int = 0
    review: int = 0
    """In the 18–23 band: human review needed."""
    dropped: int = 0
    accepted: int = 0
    """Decided by a person: accepted (or since moved on to implemented, calibrated, admitted)."""
    rejected: int = 0
    duplicates: int = 0
    failed: int = 0
    """Candidates or reviews that ended malformed or failed."""
    mean_scores: dict[str, float] = {}
    """Mean score per rubric dimension over the latest reviews."""
    usage: Usage = Usage()


def cell_reports(workspace: Workspace) -> list[CellReport]:
    blueprints, _ = BlueprintStore(workspace.blueprints).load_all()
    dimensions = load_rubric(workspace.rubric).dimension_ids
    reports: dict[str, CellReport] = {}
    scores: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for blueprint in blueprints:
        report = reports.setdefault(blueprint.taxonomy_id, CellReport(cell=blueprint.taxonomy_id))
        report.proposed += 1
        report.pending += blueprint.status == Status.PROPOSED
        report.duplicates += blueprint.duplicate_of is not None
        report.accepted += blueprint.status in ACCEPTED_OR_LATER
        report.rejected += blueprint.status == Status.REJECTED
        review = blueprint.latest_review
        if review is not None:
            report.kept += review.band == Status.KEPT
            report.review += review.band == Status.NEEDS_REVIEW
            report.dropped += review.band == Status.DROPPED
            for score in review.scores:
                scores[blueprint.taxonomy_id][score.dimension].append(score.score)
    for entry in ledger.read(workspace.ledger):
        report = reports.setdefault(entry.cell, CellReport(cell=entry.cell))
        report.usage += entry.usage
        report.failed += entry.outcome in ("malformed", "failed")
    for cell_id, report in reports.items():
        report.mean_scores = {d: round(mean(scores[cell_id][d]), 2) for d in dimensions if scores[cell_id][d]}
    return [reports[c] for c in sorted(reports)]
