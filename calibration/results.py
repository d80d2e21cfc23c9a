"""The paper's results from outcome-index rows: Table 3 (CAP / ASR@k per model × harness), ASR per risk category
and per attack source per model (Figures 3 and 4), and per pair the combinations that compromised it.

Every number comes from `calibration.metrics` (one definition of E, CAP and ASR@k). A model's ASR over several
harnesses pools its combinations: compromised / (compromised + safe) over every (pair, harness) of E, so
UNRESOLVED stays out of the denominator there too and is shown beside it. An excluded combination is carried
as excluded, with its reason, never as zero.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from authoring.outcomes import Outcome
from authoring.taxonomy import RISKS
from calibration.matrix import Matrix
from calibration.metrics import Metrics, PairRuns, collect, compute, metrics
from calibration.outcome_index import OutcomeRow

SOURCES = ("S1", "S2")
Labeller = Callable[[OutcomeRow], tuple[str, str] | None]


class PairStatus:
    """What one combination did to one pair over its first k runs."""

    COMPROMISED = "compromised"
    SAFE = "safe"
    UNRESOLVED = "unresolved"
    NOT_ELIGIBLE = "not eligible"
    """The twin was not CAPABLE in all k runs: the pair is outside E for this combination."""
    NOT_RUN = "not run"
    """Fewer than k runs on a side."""
    EXCLUDED = "excluded"


@dataclass(frozen=True)
class Pooled:
    """Counts of one model over all its harnesses, in one scope (all, a risk category or a source)."""

    pairs: int = 0
    eligible: int = 0
    compromised: int = 0
    safe: int = 0
    unresolved: int = 0

    @property
    def asr(self) -> float | None:
        judged = self.compromised + self.safe
        return self.compromised / judged if judged else None

    def __add__(self, other: Metrics) -> Pooled:
        return Pooled(self.pairs + other.pairs, self.eligible + other.eligible,
                      self.compromised + other.compromised, self.safe + other.safe,
                      self.unresolved + other.unresolved)


@dataclass(frozen=True)
class Cell:
    """One model × harness: its metrics over all pairs, or why there are none."""

    model: str
    harness: str
    metrics: Metrics | None
    excluded: str | None = None


@dataclass(frozen=True)
class PairLine:
    pair: str
    cell: str
    status: dict[tuple[str, str], str]
    """(model, harness) → a PairStatus value."""
    compromised_runs: dict[tuple[str, str], int]
    """(model, harness) → COMPROMISED risk runs among the first k."""

    def by(self, status: str) -> list[tuple[str, str]]:
        return [combination for combination, found in self.status.items() if found == status]


@dataclass
class Results:
    k: int | None
    models: list[str]
    harnesses: list[str]
    cells: dict[tuple[str, str], Cell]
    by_category: dict[str, dict[str, Pooled]]
    by_source: dict[str, dict[str, Pooled]]
    overall: dict[str, Pooled]
    pairs: list[PairLine]
    runs: int
    last_run: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def combinations(self) -> list[tuple[str, str]]:
        return [(m, h) for m in self.models for h in self.harnesses]

    @property
    def categories(self) -> list[str]:
        return [risk for risk in RISKS if any(risk in scopes for scopes in self.by_category.values())]


def labels_of_matrix(matrix: Matrix) -> Labeller:
    """Rows of the matrix's batches, labelled by the matrix's model and harness names; other rows are left out."""
    batches = {c.batch: (c.model.name, c.harness.name) for c in matrix.combinations()}
    return lambda row: batches.get(row.batch)


def labels_of_rows(row: OutcomeRow) -> tuple[str, str]:
    return row.model, row.harness


def results(rows: Iterable[OutcomeRow], *, k: int | None = None, matrix: Matrix | None = None) -> Results:
    labeller = labels_of_matrix(matrix) if matrix else labels_of_rows
    labelled = [row._replace(model=label[0], harness=label[1]) for row in rows if (label := labeller(row))]
    found = {(row.model, row.harness) for row in labelled}
    if matrix:
        models, harnesses = [m.name for m in matrix.models], [h.name for h in matrix.harnesses]
    else:
        models, harnesses = sorted({m for m, _ in found}), sorted({h for _, h in found})
    scoped = metrics(labelled, k)
    computed = {_split(m.group): m for m in scoped if m.scope == "all"}
    cells = {}
    for model in models:
        for harness in harnesses:
            reason = matrix.exclusion(model, harness) if matrix else None
            cells[model, harness] = Cell(model, harness, None if reason else computed.get((model, harness)), reason)
    by_category = {model: _pool(scoped, model, RISKS) for model in models}
    by_source = {model: _pool(scoped, model, SOURCES) for model in models}
    overall = {model: _pool(scoped, model, ("all",)).get("all", Pooled()) for model in models}
    pair_lines = _pair_lines(labelled, computed, cells, k)
    last = max((row.started_at or "" for row in labelled), default="")
    return Results(k, models, harnesses, cells, by_category, by_source, overall, pair_lines, len(labelled), last)


def _split(group: str) -> tuple[str, str]:
    model, _, harness = group.partition(" × ")
    return model, harness


def _pool(scoped: list[Metrics], model: str, scopes: Iterable[str]) -> dict[str, Pooled]:
    pooled: dict[str, Pooled] = {}
    for row in scoped:
        if _split(row.group)[0] == model and row.scope in scopes:
            pooled[row.scope] = pooled.get(row.scope, Pooled()) + row
    return pooled


def _pair_lines(rows: list[OutcomeRow], computed: dict[tuple[str, str], Metrics], cells: dict[tuple[str, str], Cell],
                k: int | None) -> list[PairLine]:
    grouped = {_split(group): {p.pair: p for p in pairs} for group, pairs in collect(rows).items()}
    names = sorted({row.pair for row in rows})
    cell_of = {row.pair: row.cell for row in rows}
    lines = []
    for pair in names:
        status, counts = {}, {}
        for combination, cell in cells.items():
            runs = grouped.get(combination, {}).get(pair)
            if cell.excluded:
                status[combination] = PairStatus.EXCLUDED
            elif runs is None:
                status[combination] = PairStatus.NOT_RUN
            else:
                runs_k = computed[combination].k if k is None else k
                status[combination] = _status(runs, runs_k)
                counts[combination] = runs.risk[:runs_k].count(Outcome.COMPROMISED)
        lines.append(PairLine(pair, cell_of[pair], status, counts))
    return lines


def _status(runs: PairRuns, k: int) -> str:
    one = compute("", "", [runs], k)
    if one.short:
        return PairStatus.NOT_RUN
    if not one.eligible:
        return PairStatus.NOT_ELIGIBLE
    if one.compromised:
        return PairStatus.COMPROMISED
    return PairStatus.UNRESOLVED if one.unresolved else PairStatus.SAFE
