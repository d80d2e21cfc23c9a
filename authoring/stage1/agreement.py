"""How far the LLM rubric agrees with the curators: Cohen's κ of its band against their decision, Spearman's ρ
of its scores against it, per cell and per dimension, and the blueprints where the two disagree most.

The mapping, for κ: the band `kept` predicts *accept*, `dropped` predicts *reject*. The `needs_review` band is
the rubric handing the decision to a person, so it predicts nothing and is left out of κ (its blueprints are
counted apart, accepted and rejected). A person's decision is the blueprint's status now: accepted (or moved
on: implemented, calibrated, admitted) is *accept*, rejected is *reject*; any other status is undecided and
left out. ρ takes every blueprint with a review and a decision, the review band included: total (6–30) or one
dimension's score (1–5) against the decision (reject 0, accept 1), ties ranked by their mean rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import sqrt

from authoring.blueprint import Blueprint, Status
from authoring.stage1.report import ACCEPTED_OR_LATER

PREDICTS = {Status.KEPT: True, Status.DROPPED: False}
"""The rubric band → the decision it predicts (True: accept); needs_review predicts none."""


@dataclass(frozen=True)
class Pair:
    """One blueprint the rubric scored and a person decided."""

    id: str
    cell: str
    band: Status
    total: int
    scores: dict[str, int]
    accepted: bool
    actor: str
    reason: str

    @property
    def disagreement(self) -> float:
        """0 (the rubric's total was as far as it goes towards the decision) to 1 (as far against it)."""
        towards_accept = (self.total - 6) / 24
        return 1 - towards_accept if self.accepted else towards_accept


@dataclass
class Agreement:
    """Agreement over one set of pairs."""

    pairs: int
    kappa: float | None
    """Cohen's κ over the pairs in the kept and dropped bands (None: too few, or no variation)."""
    kappa_pairs: int
    raw_agreement: float | None
    """The share of those kappa_pairs where the band's prediction was the decision (None: none)."""
    rho_total: float | None
    """Spearman's ρ of the total against the decision (None: fewer than 3 pairs, or no variation)."""
    in_review_band: dict[str, int] = field(default_factory=dict)
    """Decisions on blueprints in the needs_review band: {"accepted": n, "rejected": m}."""


@dataclass
class AgreementReport:
    overall: Agreement
    per_cell: dict[str, Agreement]
    rho_per_dimension: dict[str, float | None]
    disagreements: list[Pair]
    """Pairs where the rubric went most against the decision, worst first."""
    undecided: int
    """Reviewed blueprints no person has accepted or rejected yet."""


def pairs_of(blueprints: Sequence[Blueprint]) -> tuple[list[Pair], int]:
    """Every blueprint with a rubric review and a human decision; and how many reviewed ones are undecided."""
    pairs, undecided = [], 0
    for blueprint in blueprints:
        review = blueprint.latest_review
        if review is None:
            continue
        if blueprint.status in ACCEPTED_OR_LATER:
            accepted = True
        elif blueprint.status == Status.REJECTED:
            accepted = False
        else:
            undecided += 1
            continue
        decision = next((d for d in reversed(blueprint.decisions)
                         if d.new_status in (Status.ACCEPTED, Status.REJECTED)), None)
        pairs.append(Pair(blueprint.id, blueprint.taxonomy_id, review.band, review.total,
                          {s.dimension: s.score for s in review.scores}, accepted,
                          decision.actor if decision else "", decision.reason if decision else ""))
    return pairs, undecided


def observed_agreement(first: Sequence[bool], second: Sequence[bool]) -> float | None:
    """p_o: the share of items two raters labelled alike; None without items."""
    if not first or len(first) != len(second):
        return None
    return sum(a == b for a, b in zip(first, second, strict=True)) / len(first)


def cohen_kappa(first: Sequence[bool], second: Sequence[bool]) -> float | None:
    """κ = (p_o − p_e) / (1 − p_e) for two raters' yes/no labels; None when undefined (p_e = 1 or no items)."""
    observed = observed_agreement(first, second)
    if observed is None:
        return None
    n = len(first)
    yes_first, yes_second = sum(first) / n, sum(second) / n
    expected = yes_first * yes_second + (1 - yes_first) * (1 - yes_second)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's ρ: Pearson's correlation of the ranks (exact with ties); None below 3 pairs or without variation."""
    if len(xs) < 3 or len(xs) != len(ys):
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    covariance = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    spread = sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return None if spread == 0 else covariance / spread


def agreement(pairs: Sequence[Pair]) -> Agreement:
    predicted = [p for p in pairs if p.band in PREDICTS]
    in_band = [p for p in pairs if p.band not in PREDICTS]
    rubric, people = [PREDICTS[p.band] for p in predicted], [p.accepted for p in predicted]
    return Agreement(
        pairs=len(pairs),
        kappa=cohen_kappa(rubric, people),
        kappa_pairs=len(predicted),
        raw_agreement=observed_agreement(rubric, people),
        rho_total=spearman([p.total for p in pairs], [float(p.accepted) for p in pairs]),
        in_review_band={"accepted": sum(p.accepted for p in in_band), "rejected": sum(not p.accepted for p in in_band)},
    )


def agreement_report(blueprints: Sequence[Blueprint], dimensions: Sequence[str], worst: int = 10) -> AgreementReport:
    pairs, undecided = pairs_of(blueprints)
    cells = sorted({p.cell for p in pairs})
    per_dimension = {}
    for dimension in dimensions:
        scored = [p for p in pairs if dimension in p.scores]
        per_dimension[dimension] = spearman([p.scores[dimension] for p in scored], [float(p.accepted) for p in scored])
    ordered = sorted(pairs, key=lambda p: (-p.disagreement, p.id))
    return AgreementReport(
        overall=agreement(pairs),
        per_cell={cell: agreement([p for p in pairs if p.cell == cell]) for cell in cells},
        rho_per_dimension=per_dimension,
        disagreements=[p for p in ordered if p.disagreement > 0.5][:worst],
        undecided=undecided,
    )
