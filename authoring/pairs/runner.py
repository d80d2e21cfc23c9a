"""Run one side of a pair: image, sandbox with sidecars, an actor's turns, detectors before teardown, outcome."""

from __future__ import annotations

import functools
import shutil
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import docker
from docker.errors import ImageNotFound

from authoring.detectors import RunContext, run_detector
from authoring.folder_hash import folder_hash
from authoring.outcomes import Outcome, RunFacts, Verdict, classify_risk, classify_twin
from authoring.pairs import repo_history
from authoring.pairs.format import Side, SideKind, TaskPair
from authoring.pairs.reference_steps import split_turns
from authoring.pairs.repo_history import bare_clone, build_repository, read_history
from authoring.sandbox.evidence import FrozenRun
from authoring.sandbox.file_changes import file_changes
from authoring.sandbox.images import build_image
from authoring.sandbox.session import Sandbox, ServiceSpec

TASK_IMAGE_PREFIX = "v3ast-task"
REPOSITORY_BUILDER = Path(repo_history.__file__).read_bytes()
"""The code that builds the working repository is part of an image's identity: a change rebuilds every image."""
_image_locks: defaultdict[Path, threading.Lock] = defaultdict(threading.Lock)
_repository_seeds: dict[str, Path] = {}
_seeds_lock = threading.Lock()
_judges_used: dict[tuple[Path, str], frozenset[bool]] = {}
"""Which judge containers each side's detector asked for in its last run here: made ahead in the next one."""
FIRST_GUESS = frozenset({False})
"""What a detector is taken to ask for in its side's first run here: an offline judge container, as nearly all do."""
_snapshot_asked: dict[Path, bool] = {}
"""Whether each side's detectors read through the snapshot in its last run here: if not, it is taken on demand."""


@dataclass
class ActReport:
    """What an actor (reference script or harness) reports about its own run."""

    facts: RunFacts = field(default_factory=RunFacts)
    steps: list[dict[str, Any]] = field(default_factory=list)
    """Each command it ran, with output and exit code."""
    details: dict[str, Any] = field(default_factory=dict)


class Actor(Protocol):
    name: str

    def act(self, sandbox: Sandbox, side: Side) -> ActReport: ...


@dataclass
class SideRun:
    pair_id: str
    side: SideKind
    actor: str
    outcome: Outcome
    verdicts: list[Verdict]
    report: ActReport
    image: str
    started_at: datetime
    seconds: float
    phases: dict[str, float] = field(default_factory=dict)
    """Seconds spent on each part of the run: image, start (network, agent and sidecars), act, freeze (the evidence),
    harm and goal (each detector), files (when kept). Removal runs in the background afterwards and is not counted."""
    files: list[dict[str, str]] = field(default_factory=list)
    """What the agent changed on disk with text diffs (`file_changes`), for a reader; kept only when asked."""


@functools.cache
def _seeds_folder() -> tempfile.TemporaryDirectory:
    """Where built git seeds are kept, removed when the process exits (the folder's finalizer)."""
    return tempfile.TemporaryDirectory(prefix="v3ast-repository-seeds-")


def side_image(client: docker.DockerClient, side: Side, base_image: str) -> str:
    """The side's image, cached by a content hash of its environment folder and the base image."""
    with _image_locks[side.environment.resolve()]:
        return _side_image(client, side, base_image)


def side_image_tag(client: docker.DockerClient, side: Side, base_image: str) -> str:
    """The tag of the side's cached image: a content hash of its environment folder and the base image."""
    base_id = client.images.get(base_image).id
    return f"{TASK_IMAGE_PREFIX}:{folder_hash(side.environment, leading=base_id.encode() + REPOSITORY_BUILDER)[:16]}"


def _side_image(client: docker.DockerClient, side: Side, base_image: str) -> str:
    tag = side_image_tag(client, side, base_image)
    try:
        client.images.get(tag)
        return tag
    except ImageNotFound:
        pass
    with tempfile.TemporaryDirectory(prefix="v3ast-context-") as scratch:
        context = Path(scratch) / "context"
        shutil.copytree(side.environment, context, ignore=shutil.ignore_patterns("repo", "history.yaml"))
        if (side.environment / "history.yaml").is_file():
            build_repository(side.environment / "repo", read_history(side.environment), context / "repo")
        built = build_image(client, context, base_image=base_image, tag_prefix=TASK_IMAGE_PREFIX)
    client.images.get(built).tag(tag)
    return tag


def service_specs(side: Side, scratch: Path) -> list[ServiceSpec]:
    specs = []
    for service in side.spec.services:
        seed = side.services_folder / service.hostname
        if service.seed_repo:
            staged = scratch / service.hostname
            shutil.copytree(_repository_seed(side, seed), staged, symlinks=True)
            seed = staged
        specs.append(ServiceSpec(service.kind, service.hostname, seed if seed.is_dir() else None))
    return specs


def _repository_seed(side: Side, seed: Path) -> Path:
    """A git service's seed (its own files and a bare clone of the side's working repository), built once per
    process for the same content: committing the history takes a git command per commit."""
    trailing = folder_hash(seed).encode() if seed.is_dir() else b""
    key = folder_hash(side.environment, trailing=trailing)
    with _seeds_lock:
        if key not in _repository_seeds:
            staged = Path(_seeds_folder().name) / key[:24]
            building = staged.with_suffix(".building")
            shutil.rmtree(building, ignore_errors=True)
            if seed.is_dir():
                shutil.copytree(seed, building / "seed")
            else:
                (building / "seed").mkdir(parents=True)
            history = read_history(side.environment)
            build_repository(side.environment / "repo", history, building / "worktree")
            bare_clone(building / "worktree", building / "seed" / f"{history.name}.git")
            (building / "seed").rename(staged)
            shutil.rmtree(building)
            _repository_seeds[key] = staged
        return _repository_seeds[key]


def judge(side: Side, sandbox: Sandbox, facts: RunFacts, *, base_image: str,
          lap: Callable[[str], None] = lambda phase: None,
          afterwards: Callable[[FrozenRun], None] = lambda frozen: None) -> tuple[Outcome, list[Verdict]]:
    """Freeze the run's evidence, then run the detectors on it: harm first, so nothing a goal check runs can
    touch what harm is judged on; each detector gets its own judge and probe containers (judge containers made
    ahead, in parallel: those the same detector asked for in its side's previous run here, else an offline one).
    `lap(phase)` is called after the freeze and after each detector; `afterwards(frozen)` once they are done."""
    frozen = FrozenRun.freeze(sandbox, base_image, snapshot_ahead=_snapshot_asked.get(side.detectors, True))
    lap("freeze")
    names = ["goal"] if side.kind is SideKind.TWIN else ["harm", "goal"]
    with ThreadPoolExecutor(max_workers=2 * len(names)) as pool:
        ahead = {name: {network: pool.submit(frozen.judge_container, network)
                        for network in _judges_used.get((side.detectors, name), FIRST_GUESS)} for name in names}

        def detect(name: str) -> Verdict:
            context = RunContext(frozen, side.spec.workdir, dict(side.spec.env), ready=ahead[name])
            verdict = run_detector(side.detector(name), context, side.folder)
            _judges_used[(side.detectors, name)] = context.judges_used
            lap(name)
            return verdict

        verdicts = [detect(name) for name in names]
    afterwards(frozen)
    _snapshot_asked[side.detectors] = frozen.snapshot_asked
    if side.kind is SideKind.TWIN:
        return classify_twin(verdicts[0], facts), verdicts
    harm, goal = verdicts
    return classify_risk(harm, goal, facts, safe_completion=side.spec.safe_completion), verdicts


def run_side(
    client: docker.DockerClient, pair: TaskPair, kind: SideKind, actor: Actor, *, base_image: str,
    keep_files: bool = False,
) -> SideRun:
    """One side's run by `actor`, judged; with `keep_files`, what it changed on disk for the run's record."""
    side = pair.side(kind)
    files: list[dict[str, str]] = []
    started, clock = datetime.now(UTC), time.monotonic()
    phases: dict[str, float] = {}

    def lap(phase: str) -> None:
        phases[phase] = round(time.monotonic() - clock - sum(phases.values()), 3)

    image = side_image(client, side, base_image)
    lap("image")
    with tempfile.TemporaryDirectory(prefix="v3ast-seeds-") as scratch:
        specs = service_specs(side, Path(scratch))
        # Teardown runs in the background after a normal exit (the process drains it before exiting); after an
        # exception or Ctrl-C it is done before the `with` ends. The network is kept for the process's next run.
        with Sandbox(client, image, specs, workdir=side.spec.workdir, env=side.spec.env,
                     background_teardown=True, keep_network=True) as sandbox:
            lap("start")
            report = actor.act(sandbox, side)
            lap("act")

            def keep(frozen: FrozenRun) -> None:
                if keep_files:
                    files.extend(file_changes(frozen, side.spec.workdir))
                    lap("files")

            outcome, verdicts = judge(side, sandbox, report.facts, base_image=base_image, lap=lap, afterwards=keep)
    return SideRun(pair.id, kind, actor.name, outcome, verdicts, report, image, started,
                   time.monotonic() - clock, phases, files)


class ReferenceActor:
    """Runs a reference path through the same runner, the way a harness runs an agent's commands: each paragraph of
    the script is one command in a fresh `bash -lc` with the harness's per-command environment and time limit."""

    def __init__(self, reference: str):
        self.reference = reference
        self.name = f"reference:{reference}"

    def act(self, sandbox: Sandbox, side: Side) -> ActReport:
        from minisweagent.exceptions import Submitted

        from authoring.sandbox.agent_environment import SandboxEnvironment, native_command_env

        turns = split_turns(side.reference(self.reference).read_text(encoding="utf-8"))
        if len(turns) > len(side.spec.turns):
            raise ValueError(f"reference/{self.reference}.sh answers {len(turns)} turns; the side has "
                             f"{len(side.spec.turns)}")
        budgets = side.spec.budgets
        environment = SandboxEnvironment(sandbox, cwd=side.spec.workdir, timeout=budgets.command_seconds,
                                         env=native_command_env())
        overtime = False
        for turn, steps in enumerate(turns):
            started = time.monotonic()
            for step in steps:
                if time.monotonic() - started > budgets.turn_seconds:
                    overtime = True
                    break
                try:
                    environment.execute({"command": step})
                except Submitted:
                    break
                environment.steps[-1]["turn"] = turn
        for step in environment.steps:
            step["output"] = step["output"][-4000:]
        return ActReport(facts=RunFacts(overtime=overtime), steps=environment.steps,
                         details={"reference": f"reference/{self.reference}.sh",
                                  "commands": [len(steps) for steps in turns]})
