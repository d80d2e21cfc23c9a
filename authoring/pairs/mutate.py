"""`v3ast pairs mutate`: are the detectors strong enough to tell a right solution from almost-right ones?

For each correct path (the twin's `solution*`, the risk side's `safe*`), the path is run once to see which files
it delivers; each file is mutated on the lines the path wrote (mutants.py: Python on its syntax tree, other text by
its lines and its SQL, either with one of the path's changes undone); each mutant is the path followed
by one more command that writes the mutated file, run as a reference variant. A path that delivers no file (its work
is the state its commands change) is mutated in its own commands instead. A mutant is **killed** when its
outcome differs from the correct path's (the twin not CAPABLE; the risk side not COMPLETED/STOPPED). Survivors are
listed; one that cannot change behaviour is recorded as equivalent, with a reason, in the pair's `mutants.yaml`."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import docker
import yaml

from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind, TaskPair, load_pair, reference_kind, rehash
from authoring.pairs.mutants import COMMANDS, SourceMutant, command_mutants, file_mutants, spread
from authoring.pairs.mutation_score import MutationScore, file_score
from authoring.pairs.receipts import MUTANTS_FILE
from authoring.pairs.runner import ActReport, ReferenceActor, run_side
from authoring.pairs.validate import validate_pairs
from authoring.sandbox.containers import read_file_from
from authoring.sandbox.session import Sandbox

CORRECT_KINDS = {SideKind.TWIN: "solution", SideKind.RISK: "safe"}
NOT_DELIVERED = {"__pycache__", "site-packages", "node_modules", "tests", "test", ".git", ".venv", "venv",
                 ".pytest_cache", ".mypy_cache", ".ruff_cache", "docs"}
NOT_DELIVERED_SUFFIXES = ("_test.py", ".pyc", ".log", ".md", ".rst")
"""Tests, compiled code, logs and prose: a mutant of them cannot be a wrong solution."""
LARGEST_FILE = 64_000
"""Characters: a delivered file longer than this (a data dump) is not mutated."""


@dataclass(frozen=True)
class Mutant:
    side: SideKind
    reference: str
    change: SourceMutant

    @property
    def id(self) -> str:
        return f"{self.side}/{self.reference}:{self.change.id}"

    @property
    def name(self) -> str:
        """Its name as a reference variant (any `wrong-*` name: its outcome is read, not checked)."""
        return f"wrong-mutant-{self.reference}-{self.change.id}"

    def script(self, original: str, deliver: str = "") -> str:
        """The path, then the mutated file written over the delivered one (then `deliver`, the pair's command that
        hands work over the way its correct paths do, e.g. a commit and a push); a mutant of the path's own commands
        is the mutated path."""
        if self.change.path == COMMANDS:
            return self.change.source
        end = f"V3AST_MUTANT_{self.change.id}"
        return (f"{original.rstrip()}\n\n# mutant: {self.change.operator} at line {self.change.line} of "
                f"{self.change.path}: {self.change.description}\ncat > '{self.change.path}' <<'{end}'\n"
                f"{self.change.source}{end}\n" + (f"\n{deliver.strip()}\n" if deliver.strip() else ""))


@dataclass(frozen=True)
class MutantResult:
    mutant: Mutant
    expected: Outcome
    """The correct path's outcome."""
    observed: Outcome | None
    equivalent: str = ""

    @property
    def killed(self) -> bool:
        return self.observed is not None and self.observed != self.expected


@dataclass(frozen=True)
class MutationReport:
    pair: str
    results: list[MutantResult]

    @property
    def counted(self) -> list[MutantResult]:
        return [result for result in self.results if not result.equivalent]

    @property
    def score(self) -> float | None:
        counted = self.counted
        return sum(result.killed for result in counted) / len(counted) if counted else None

    @property
    def survivors(self) -> list[MutantResult]:
        return [result for result in self.counted if not result.killed]

    def score_of(self) -> MutationScore:
        return MutationScore(sum(result.killed for result in self.counted), len(self.counted),
                             len(self.results) - len(self.counted), [result.mutant.id for result in self.survivors])

    def file(self, pair: TaskPair) -> None:
        """Keep the score beside the pair's receipts, for `validate` and Stage II to read."""
        file_score(pair, self.score_of())

    def summary(self) -> str:
        return f"{self.pair}: {self.score_of().summary()}"


class DeliveryCapture:
    """Runs a reference path, then reads every text file under the working directory that it added or changed (the
    engine's diff), with the image's version of each."""

    def __init__(self, reference: str):
        self.reference = ReferenceActor(reference)
        self.name = self.reference.name
        self.files: list[tuple[str, str | None, str]] = []

    def act(self, sandbox: Sandbox, side) -> ActReport:
        report = self.reference.act(sandbox, side)
        workdir = side.spec.workdir.rstrip("/") + "/"
        changed = {change["Path"] for change in sandbox.agent.diff() or [] if change["Kind"] in (0, 1)}
        folders = {str(PurePosixPath(path).parent) for path in changed}  # listed because something in them changed
        paths = sorted(path for path in changed - folders
                       if path.startswith(workdir) and delivered_file(path[len(workdir):]))
        image = sandbox.client.containers.create(sandbox.image, ["true"])
        try:
            for path in paths:
                after = _text(_regular_file(sandbox.agent, path))
                if after is not None and len(after) <= LARGEST_FILE:
                    self.files.append((path, _text(_regular_file(image, path)), after))
        finally:
            image.remove(force=True)
        return report


def delivered_file(relative: str) -> bool:
    """A file of the product (not its tests, the repository's metadata, caches, environments or installed
    packages): what a mutant changes."""
    parts = PurePosixPath(relative).parts
    return (not NOT_DELIVERED & set(parts) and not any(part.endswith(".egg-info") for part in parts)
            and not parts[-1].startswith("test_") and not parts[-1].endswith(NOT_DELIVERED_SUFFIXES))


def _regular_file(container, path: str) -> bytes | None:
    """The file's bytes; None for a folder, a link or nothing."""
    try:
        return read_file_from(container, path)
    except ValueError:
        return None


def _text(data: bytes | None) -> str | None:
    try:
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def declared(folder: Path) -> dict:
    """The pair's `mutants.yaml` (empty when it has none); a malformed one raises with where it is wrong."""
    path = folder / MUTANTS_FILE
    if not path.is_file():
        return {}
    try:
        found = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise ValueError(f"{path}: not valid YAML{where}: {getattr(error, 'problem', None) or error}") from None
    if not isinstance(found, dict):
        raise ValueError(f"{path}: expected a mapping with `deliver` and/or `equivalent`")
    return found


def equivalents(folder: Path) -> dict[str, str]:
    """The pair's recorded equivalent mutants: id → why it cannot change behaviour."""
    return {str(key): str(value) for key, value in (declared(folder).get("equivalent") or {}).items()}


def delivery(folder: Path) -> str:
    """The pair's `deliver` command: how its correct paths hand work over after writing it, where the detectors
    judge what was handed over (a remote's branch) rather than the work tree."""
    return str(declared(folder).get("deliver") or "")


def correct_paths(pair: TaskPair, every: bool) -> list[tuple[SideKind, str]]:
    """The base correct path of each side, or with `every` all its correct variants too."""
    return [(kind, name) for kind, base in CORRECT_KINDS.items() for name in pair.side(kind).reference_names()
            if reference_kind(name) == base and (every or name == base)]


def derive_mutants(client: docker.DockerClient, pair: TaskPair, base_image: str, *, every: bool = False,
                   limit: int = 12) -> list[Mutant]:
    """Up to `limit` mutants of each correct path's delivered code (or of its commands, when it delivers none)."""
    mutants = []
    for kind, reference in correct_paths(pair, every):
        capture = DeliveryCapture(reference)
        run_side(client, pair, kind, capture, base_image=base_image)
        found = [change for path, before, after in capture.files for change in file_mutants(path, before, after)]
        if not capture.files:
            found = command_mutants(pair.side(kind).reference(reference).read_text(encoding="utf-8"))
        mutants += [Mutant(kind, reference, change) for change in spread(found, limit)]
    return mutants


def run_mutants(client: docker.DockerClient, pair: TaskPair, mutants: list[Mutant], base_image: str, *,
                workers: int = 2) -> MutationReport:
    """Run each mutant as a reference variant of a scratch copy of the pair."""
    recorded = equivalents(pair.folder)
    with tempfile.TemporaryDirectory(prefix="v3ast-mutants-") as scratch:
        folder = Path(scratch) / pair.id
        shutil.copytree(pair.folder, folder, ignore=shutil.ignore_patterns("__pycache__"))
        deliver = delivery(pair.folder)
        for mutant in mutants:
            original = pair.side(mutant.side).reference(mutant.reference).read_text(encoding="utf-8")
            (folder / str(mutant.side) / "reference" / f"{mutant.name}.sh").write_text(mutant.script(original, deliver))
        rehash(folder)
        checks = validate_pairs(client, [load_pair(folder)], base_image=base_image, workers=workers,
                                only=[mutant.name for mutant in mutants]) if mutants else []
    observed = {(check.side, check.reference): check.observed for check in checks}
    results = []
    for mutant in mutants:
        expected = pair.side(mutant.side).expected(mutant.reference)
        results.append(MutantResult(mutant, expected, observed.get((mutant.side, mutant.name)),
                                    recorded.get(mutant.id, "")))
    return MutationReport(pair.id, results)
