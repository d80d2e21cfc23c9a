"""The model × harness matrix: which models run under which harnesses, what is left out and why, and the plan
that expands it into run keys.

A matrix file (`matrix.yaml`, see `calibration/matrix.paper.yaml`) lists models (name, endpoint, provider kind,
wire format, the variable holding the key), harnesses, and exclusions as data: a set of models × a set of
harnesses with the reason (e.g. "reasoning state lost"). Each combination that is not excluded is one
resumable batch under `runs/`, named `<matrix>--<model>--<harness>`, holding K risk and K twin runs per pair;
its run keys are `RunKey(batch, pair, side, index)`, so a combination is resumed exactly like a calibration
batch (a finished record is never run again). `calibration/matrix_run.py` executes a plan through the harness
adapters (`v3ast matrix run`); `run_matrix` hands each combination with unfinished runs to a
`CombinationRunner` of the caller's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from authoring.blueprint import plain_problems
from authoring.blueprint_files import SafeLoader
from authoring.errors import V3astError
from authoring.model_api import API_FORMATS
from calibration.records import RunKey, is_finished

WIRE_FORMATS = tuple(sorted(API_FORMATS))
SIDES = ("risk", "twin")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
ProviderKind = Literal["openai", "anthropic", "vllm", "openai-compatible"]


def _name(value: str) -> str:
    if not NAME.match(value):
        raise ValueError(f"{value!r} is not a name (letters, digits, '.', '_', '-'; no spaces or slashes)")
    return value


Name = Annotated[str, AfterValidator(_name)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelEntry(Strict):
    name: Name
    """The matrix's name for the model (batch names and report columns use it)."""
    served_name: str = ""
    """The model name the endpoint serves (default: `name`)."""
    endpoint: str
    """Base URL of the endpoint (ending in /v1)."""
    provider: ProviderKind
    """Who serves it: a vendor API (openai, anthropic) or a self-hosted server (vllm, openai-compatible)."""
    wire: str | tuple[str, ...]
    """The endpoint's wire format — anthropic (Messages), openai (Chat Completions) or responses — or a list of the
    formats it serves (vLLM and most gateways serve several); a harness speaks the first it can."""
    api_key_env: str = ""
    """The environment variable holding the endpoint's key; the key itself is never written in the file."""

    @field_validator("endpoint")
    @classmethod
    def _url(cls, value: str) -> str:
        if not re.match(r"^https?://[^\s/]+", value):
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value

    @field_validator("wire", mode="before")
    @classmethod
    def _wire(cls, value):
        formats = [value] if isinstance(value, str) else value
        if not isinstance(formats, list) or not formats:
            raise ValueError(f"expected a wire format or a list of them ({', '.join(WIRE_FORMATS)})")
        for wire in formats:
            if wire not in WIRE_FORMATS:
                raise ValueError(f"{wire!r} is not a wire format ({', '.join(WIRE_FORMATS)})")
        return value if isinstance(value, str) else tuple(dict.fromkeys(formats))

    @property
    def wires(self) -> tuple[str, ...]:
        return (self.wire,) if isinstance(self.wire, str) else self.wire

    @property
    def model_name(self) -> str:
        return self.served_name or self.name


class HarnessEntry(Strict):
    name: Name
    """The harness adapter's name: mini-swe-agent, codex, claude-code, opencode, pi."""
    version: str = ""
    """A version to require of the adapter (empty: whatever the adapter pins)."""


class Exclusion(Strict):
    models: list[str] = Field(min_length=1)
    harnesses: list[str] = Field(min_length=1)
    reason: str
    """Why these combinations are not run (e.g. "reasoning state lost")."""

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must say why (e.g. 'reasoning state lost')")
        return value.strip()


class Matrix(Strict):
    name: Name
    """The matrix's name: the prefix of its batches under runs/."""
    runs: int = Field(4, ge=1)
    """K: risk runs and twin runs per pair per combination."""
    models: list[ModelEntry] = Field(min_length=1)
    harnesses: list[HarnessEntry] = Field(min_length=1)
    exclusions: list[Exclusion] = []

    @field_validator("harnesses", mode="before")
    @classmethod
    def _harness_shorthand(cls, value):
        return [{"name": item} if isinstance(item, str) else item for item in value] if isinstance(value, list) \
            else value

    @model_validator(mode="after")
    def _references(self) -> Matrix:
        for what, names in (("models", [m.name for m in self.models]), ("harnesses", [h.name for h in self.harnesses])):
            if repeated := sorted({n for n in names if names.count(n) > 1}):
                raise ValueError(f"{what}: {', '.join(repeated)} listed twice")
        models, harnesses = {m.name for m in self.models}, {h.name for h in self.harnesses}
        for number, exclusion in enumerate(self.exclusions):
            for what, names, known in (("models", exclusion.models, models),
                                       ("harnesses", exclusion.harnesses, harnesses)):
                if unknown := [n for n in names if n not in known]:
                    raise ValueError(f"exclusions.{number}.{what}: {', '.join(unknown)} not in {what} "
                                     f"({', '.join(sorted(known))})")
        return self

    def exclusion(self, model: str, harness: str) -> str | None:
        """Why a combination is excluded, or None when it is run."""
        return next((e.reason for e in self.exclusions if model in e.models and harness in e.harnesses), None)

    def combinations(self) -> list[Combination]:
        """Every model × harness, in file order (model first), with its exclusion reason if any."""
        return [Combination(self.name, model, harness, self.exclusion(model.name, harness.name))
                for model in self.models for harness in self.harnesses]


class MatrixError(V3astError, ValueError):
    """A matrix file that cannot be used, said in one line."""


@dataclass(frozen=True)
class Combination:
    matrix: str
    model: ModelEntry
    harness: HarnessEntry
    excluded: str | None = None
    """The exclusion's reason; None when the combination is run."""

    @property
    def batch(self) -> str:
        return f"{self.matrix}--{self.model.name}--{self.harness.name}"

    @property
    def label(self) -> str:
        return f"{self.model.name} × {self.harness.name}"


@dataclass(frozen=True)
class PlannedRun:
    combination: Combination
    key: RunKey


@dataclass(frozen=True)
class MatrixPlan:
    matrix: Matrix
    pairs: tuple[str, ...]
    k: int
    """Risk runs and twin runs per pair per combination."""
    runs: tuple[PlannedRun, ...]

    @property
    def combinations(self) -> list[Combination]:
        return [c for c in self.matrix.combinations() if c.excluded is None]

    @property
    def excluded(self) -> list[Combination]:
        return [c for c in self.matrix.combinations() if c.excluded is not None]

    def of(self, combination: Combination) -> list[RunKey]:
        return [run.key for run in self.runs if run.combination == combination]


def load_matrix(path: Path) -> Matrix:
    """The matrix in a file; a malformed one raises MatrixError with every problem on one line."""
    path = Path(path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=SafeLoader)
    except OSError as error:
        raise MatrixError(f"{path}: cannot read ({error.strerror})") from None
    except (UnicodeDecodeError, yaml.YAMLError) as error:
        raise MatrixError(f"{path}: not YAML: {' '.join(str(error).split())}") from None
    if not isinstance(data, dict):
        raise MatrixError(f"{path}: expected a mapping with name, models, harnesses (and exclusions)")
    try:
        return Matrix.model_validate(data)
    except ValidationError as error:
        problems = [line.replace("(blueprint)", "(matrix)") for line in plain_problems(error)]
        raise MatrixError(f"{path}: {'; '.join(problems)}") from None


def plan_matrix(matrix: Matrix, pairs: Iterable[str], runs: int | None = None) -> MatrixPlan:
    """Run keys: pair × side × run index for every combination not excluded (K from the file unless given)."""
    pairs = tuple(sorted(dict.fromkeys(pairs)))
    count = runs or matrix.runs
    keys = tuple(PlannedRun(combination, RunKey(combination.batch, pair, side, index))
                 for combination in matrix.combinations() if combination.excluded is None
                 for pair in pairs for index in range(count) for side in SIDES)
    return MatrixPlan(matrix, pairs, count, keys)


def unfinished(plan: MatrixPlan, runs_root: Path, content_hashes: dict[str, str]) -> list[PlannedRun]:
    """The planned runs without a finished record of the pair's current content (what a resumed matrix runs)."""
    return [run for run in plan.runs if not is_finished(run.key.path(runs_root), content_hashes[run.key.pair])]


CombinationRunner = Callable[[Combination, list[str], int], None]
"""Runs one combination's batch (named `combination.batch`) on the given pairs with K runs per side; the batch
itself skips runs already finished. Supplied by the harness adapters."""


def run_matrix(plan: MatrixPlan, runner: CombinationRunner, runs_root: Path, content_hashes: dict[str, str],
               progress: Callable[[Combination, int, int], None] = lambda *_: None) -> list[Combination]:
    """Hand each combination with unfinished runs to `runner`, in plan order; the combinations it ran.
    `progress(combination, left, planned)` is called before each one, for one display of the whole matrix."""
    left = unfinished(plan, runs_root, content_hashes)
    ran = []
    planned = len(plan.pairs) * plan.k * len(SIDES)
    for combination in plan.combinations:
        todo = [run for run in left if run.combination == combination]
        if not todo:
            continue
        progress(combination, len(todo), planned)
        runner(combination, list(plan.pairs), plan.k)
        ran.append(combination)
    return ran
