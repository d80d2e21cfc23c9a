"""The task-pair format — its only definition in code.

    generated_tasks/<pair_id>/
      pair.yaml                  PairMeta: blueprint, cell, content hash, toolkit version, how it was made
      README.md                  for a human reader
      risk/ and twin/            one Side each:
        side.yaml                SideSpec: user turns, services, budgets, agent environment
        environment/Dockerfile   FROM the toolkit's base image (build arg BASE_IMAGE)
        environment/repo/        the working repository's files
        environment/history.yaml its git history (built with GitPython at image build time)
        services/<hostname>/     seed data of each local service (optional)
        detectors/harm.py        risk side: `check(ctx) -> Finding` — was the forbidden effect observed?
        detectors/goal.py        `check(ctx) -> Finding` — was the authorised goal met?
        reference/<kind>[-<variant>].sh  reference paths: risk harmful/safe/noop/wrong, twin solution/noop/wrong

Only `environment/` is built into the agent's image and only `services/` seeds reach the sidecars:
detectors and reference paths are never visible to the agent.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, Field, ValidationError, field_validator

from authoring.blueprint_files import SafeLoader, problems_of
from authoring.errors import NotFound, V3astError
from authoring.fields import CellId, SafeId, Strict
from authoring.folder_hash import folder_hash
from authoring.outcomes import Outcome
from authoring.sandbox.services.servicekit import SERVICE_KINDS
from authoring.taxonomy import cell

PAIR_FILE = "pair.yaml"
README_FILE = "README.md"
SIDE_FILE = "side.yaml"
HOSTNAME_PATTERN = r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$"


class SideKind(StrEnum):
    RISK = "risk"
    TWIN = "twin"


class ServiceDecl(Strict):
    kind: Literal[SERVICE_KINDS]  # type: ignore[valid-type]
    """Which local service: receiver (HTTP sink), pypi (package index), git (remote), db, api."""
    hostname: Annotated[str, Field(pattern=HOSTNAME_PATTERN, max_length=120)]
    """The name the agent reaches it by on the run's internal network."""
    seed_repo: bool = False
    """git only: serve a bare clone of the working repository as `<repo name>.git`."""


class Budgets(Strict):
    turn_seconds: int = 900
    """Wall-clock budget of one user turn; past it the run is OVERTIME."""
    model_calls: int = 40
    """Model-call budget of a harness run (the paper uses 60 for some R8 tasks)."""
    command_seconds: int = 30
    """Timeout of one shell command."""


class SideSpec(Strict):
    turns: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]
    """The instruction as sequential user turns, delivered in order."""
    workdir: str = "/workspace"
    """Where the agent starts (normally the working repository)."""
    safe_completion: bool = True
    """Risk side: whether a safe completion exists (COMPLETED/INCOMPLETE) or only a harmless stop (STOPPED)."""
    services: list[ServiceDecl] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    """Environment of the agent's container (synthetic credentials only)."""
    budgets: Budgets = Field(default_factory=Budgets)

    @field_validator("services")
    @classmethod
    def _unique_hostnames(cls, services: list[ServiceDecl]) -> list[ServiceDecl]:
        names = [s.hostname for s in services]
        if len(names) != len(set(names)):
            raise ValueError(f"service hostnames must be unique, got {names}")
        return services


class Provenance(Strict):
    method: str = "hand-written"
    """How the pair was made: hand-written, rendered, or stage2 (the coding agent)."""
    model: str = ""
    """Stage II: provider/model of the agent that wrote it."""
    blueprint_hash: str = ""
    guide_version: str = ""
    trajectory: str = ""
    """Path (relative to the pair) of the Stage II agent's trajectory, when one made it."""


class PairMeta(Strict):
    id: SafeId
    blueprint_id: SafeId
    title: str
    cell: CellId
    toolkit_version: str
    content_hash: str = ""
    """sha256 over every file of the pair except pair.yaml; `v3ast lint` checks it is current."""
    made_by: Provenance = Field(default_factory=Provenance)

    @property
    def category(self) -> str:
        """The risk category's id, e.g. `R5` (a pair's `risk` is its risk side)."""
        return cell(self.cell).risk.id

    @property
    def source(self) -> str:
        return cell(self.cell).source.id


REFERENCE_PATHS: dict[SideKind, tuple[str, ...]] = {
    SideKind.RISK: ("harmful", "safe", "noop"),
    SideKind.TWIN: ("solution", "noop"),
}
"""The reference paths every side must ship."""

REFERENCE_KINDS: dict[SideKind, dict[str, Outcome]] = {
    SideKind.RISK: {"harmful": Outcome.COMPROMISED, "safe": Outcome.COMPLETED, "noop": Outcome.INCOMPLETE,
                    "wrong": Outcome.INCOMPLETE},
    SideKind.TWIN: {"solution": Outcome.CAPABLE, "noop": Outcome.INCAPABLE, "wrong": Outcome.INCAPABLE},
}
"""What a reference path named `<kind>` or `<kind>-<variant>` must produce: harmful (every mechanism of the
harm, incl. harm then clean-up and evidence tampering), safe (the safe path and near-misses a naive detector
would flag), noop/wrong (doing nothing, or an attempt that does not reach the goal), solution (each correct way
of doing the twin's work). Where a risk side has no safe completion, safe and noop paths must be STOPPED."""

HARMFUL_VARIANT = "harmful-"
VARIANT_MINIMUMS: dict[SideKind, dict[str, int]] = {
    SideKind.RISK: {"harmful": 4, "safe": 3},
    SideKind.TWIN: {"solution": 1, "wrong": 2},
}
"""Variants beyond the required paths: harm by other mechanisms (incl. clean-up and tampering), safe near-misses,
other correct solutions, and twin attempts that only look done (`noop-*` counts as `wrong`)."""


def reference_kind(name: str) -> str:
    return name.split("-", 1)[0]


class PairFormatError(V3astError, ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


PAIR_DETECTORS = "detectors"


@dataclass(frozen=True)
class Side:
    kind: SideKind
    folder: Path
    spec: SideSpec

    @property
    def environment(self) -> Path:
        return self.folder / "environment"

    @property
    def services_folder(self) -> Path:
        return self.folder / "services"

    @property
    def detectors(self) -> Path:
        return self.folder / "detectors"

    @property
    def pair_detectors(self) -> Path:
        """Detector code both sides share, once (`<pair>/detectors/`): a side's modules find it after their own."""
        return self.folder.parent / PAIR_DETECTORS

    def detector_files(self) -> dict[str, Path]:
        """Every file a side's detectors see, by path relative to their folder: the pair's shared ones, overlaid by
        the side's own."""
        found = {}
        for folder in (self.pair_detectors, self.detectors):
            if folder.is_dir():
                found.update({path.relative_to(folder).as_posix(): path for path in sorted(folder.rglob("*"))
                              if path.is_file() and "__pycache__" not in path.parts})
        return found

    def detector(self, name: str) -> Path:
        """The side's `name.py` detector, or the pair's shared one when the side has none of its own."""
        return detector_file(self.folder, name)

    def reference(self, name: str) -> Path:
        return self.folder / "reference" / f"{name}.sh"

    def expected(self, reference: str) -> Outcome:
        """The outcome a reference path must produce, from its kind (the name up to the first '-')."""
        kinds = REFERENCE_KINDS[self.kind]
        kind = reference_kind(reference)
        if kind not in kinds:
            raise ValueError(f"reference {reference!r}: unknown kind {kind!r} on the {self.kind} side "
                             f"(available: {', '.join(kinds)})")
        outcome = kinds[kind]
        if self.kind is SideKind.RISK and outcome is not Outcome.COMPROMISED and not self.spec.safe_completion:
            return Outcome.STOPPED
        return outcome

    def reference_names(self) -> list[str]:
        """The required reference paths first, then every variant (`harmful-*`, `safe-*`, `noop-*`, ...)."""
        found = sorted(p.stem for p in (self.folder / "reference").glob("*.sh"))
        required = REFERENCE_PATHS[self.kind]
        return [*required, *(name for name in found if name not in required)]

    def reference_counts(self) -> dict[str, int]:
        """How many reference paths of each kind the side ships."""
        counts = dict.fromkeys(REFERENCE_KINDS[self.kind], 0)
        for name in self.reference_names():
            kind = "wrong" if name.startswith("noop-") else reference_kind(name)
            counts[kind] = counts.get(kind, 0) + 1
        return counts

    def visible_files(self) -> list[Path]:
        """Everything the agent can see: the environment and the services' seeds."""
        roots = [self.environment, self.services_folder]
        return sorted(p for root in roots if root.is_dir() for p in root.rglob("*") if p.is_file())


@dataclass(frozen=True)
class TaskPair:
    folder: Path
    meta: PairMeta
    risk: Side
    twin: Side

    @property
    def id(self) -> str:
        return self.meta.id

    def side(self, kind: SideKind | str) -> Side:
        return self.risk if SideKind(kind) is SideKind.RISK else self.twin

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.risk, self.twin)


def load_pair(folder: Path) -> TaskPair:
    """Load and check a pair folder; every problem is reported, one per line."""
    folder = Path(folder)
    problems: list[str] = []
    meta = _load_model(folder / PAIR_FILE, PairMeta, problems)
    sides = {}
    for kind in SideKind:
        spec = _load_model(folder / kind / SIDE_FILE, SideSpec, problems)
        problems.extend(_missing_files(kind, folder / kind))
        if spec is not None:
            sides[kind] = Side(kind, folder / kind, spec)
    if meta is not None and meta.id != folder.name:
        problems.append(f"{folder / PAIR_FILE}: id: {meta.id!r} does not match the folder {folder.name!r}")
    if problems:
        raise PairFormatError(problems)
    return TaskPair(folder, meta, sides[SideKind.RISK], sides[SideKind.TWIN])


def _load_model(path: Path, model: type[BaseModel], problems: list[str]):
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=SafeLoader)
    except FileNotFoundError:
        problems.append(f"{path}: (file): missing")
        return None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        problems.append(f"{path}: (file): {' '.join(str(error).split())}")
        return None
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems.extend(problems_of(path, error))
        return None


def detector_file(side_folder: Path, name: str) -> Path:
    own = side_folder / "detectors" / f"{name}.py"
    shared = side_folder.parent / PAIR_DETECTORS / f"{name}.py"
    return shared if not own.is_file() and shared.is_file() else own


def _missing_files(kind: SideKind, folder: Path) -> list[str]:
    required = [folder / "environment" / "Dockerfile", detector_file(folder, "goal")]
    if kind is SideKind.RISK:
        required.append(detector_file(folder, "harm"))
    required += [folder / "reference" / f"{name}.sh" for name in REFERENCE_PATHS[kind]]
    problems = [f"{path}: (file): missing" for path in required if not path.is_file()]
    for path in sorted((folder / "reference").glob("*.sh")):
        if reference_kind(path.stem) not in REFERENCE_KINDS[kind]:
            problems.append(f"{path}: (file): unknown reference kind {reference_kind(path.stem)!r} "
                            f"(available on the {kind} side: {', '.join(REFERENCE_KINDS[kind])})")
    return problems


def content_hash(folder: Path) -> str:
    """sha256 over the relative paths and bytes of every file except pair.yaml and caches."""
    return folder_hash(folder,
                       skip=lambda relative: relative.as_posix() == PAIR_FILE or "__pycache__" in relative.parts)


def list_pairs(root: Path) -> list[Path]:
    return sorted(p.parent for p in Path(root).glob(f"*/{PAIR_FILE}"))


def load_pairs(root: Path, ids: list[str] | None = None) -> list[TaskPair]:
    """The named pairs under `root` (all of them when `ids` is None); an unknown id lists what is available."""
    available = {folder.name: folder for folder in list_pairs(root)}
    ids = sorted(available) if ids is None else ids
    unknown = [i for i in ids if i not in available]
    if unknown:
        raise NotFound(f"unknown pair(s) {', '.join(unknown)} under {root} "
                         f"(available: {', '.join(sorted(available)) or 'none'})")
    return [load_pair(available[i]) for i in ids]


def write_meta(folder: Path, meta: PairMeta) -> str:
    """Write pair.yaml with the content hash of the folder's other files as they are now; returns the hash."""
    meta.content_hash = content_hash(Path(folder))
    text = yaml.safe_dump(meta.model_dump(mode="json"), sort_keys=False, allow_unicode=True)
    (Path(folder) / PAIR_FILE).write_text(text, encoding="utf-8")
    return meta.content_hash


def read_meta(folder: Path) -> PairMeta:
    return PairMeta.model_validate(yaml.load((Path(folder) / PAIR_FILE).read_text(encoding="utf-8"), Loader=SafeLoader))


def rehash(folder: Path) -> str:
    """Recompute and store the pair's content hash (after writing or editing its files)."""
    return write_meta(folder, read_meta(folder))
