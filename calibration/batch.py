"""A resumable batch of runs: K risk and K twin runs per pair, each recorded atomically when it finishes, with its
row in the batch's outcome index written under the same lock."""

from __future__ import annotations

import json
import re
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Literal

import docker
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from authoring.executor import (
    BatchIncomplete,
    Done,
    EngineLost,
    Executor,
    ExecutorError,
    Job,
    LocalExecutor,
    Shipment,
    engine_answers,
    resume_command,
    stop_if_engine_lost,
)
from authoring.fields import Strict
from authoring.outcomes import Outcome
from authoring.pairs.format import Side, SideKind, TaskPair, content_hash, load_pair
from authoring.pairs.runner import Actor, ActReport, run_side
from authoring.sandbox.agent_environment import Interrupted
from authoring.sandbox.session import Sandbox
from authoring.sandbox.teardown import remove_leftovers
from calibration.outcome_index import OutcomeIndex, OutcomeRow
from calibration.records import RunKey, build_record, is_finished, records_folder, secret_values

BATCH_FILE = "batch.json"
IN_FLIGHT = "in-flight"
ActorFactory = Callable[[threading.Event], Actor]


class BatchSettings(Strict):
    """What a batch is: its name, purpose, run count and the harness settings shared by every run."""


    name: str
    """Folder name under runs/; the same name resumes the same batch."""
    purpose: Literal["calibration", "evaluation"] = "calibration"
    """Calibration (admission gate) or evaluation of a model on admitted pairs."""
    runs: int = 1
    """K: runs per side of each pair."""
    workers: int = 1
    """Runs in parallel."""
    scripted: bool = False
    """Whether scripted reference policies stood in for a real model."""
    harness: dict[str, Any] = {}
    """The harness and model settings, without keys."""


@dataclass
class BatchOutcome:
    settings: BatchSettings
    rows: list[OutcomeRow] = field(default_factory=list)
    """The outcome index rows of the batch's run slots."""
    ran: int = 0
    skipped: int = 0


def default_batch_name(purpose: str, model: str, action_format: str, scripted: bool) -> str:
    slug = "scripted" if scripted else re.sub(r"[^a-z0-9.]+", "-", model.lower()).strip("-")
    return f"{purpose}-{slug}-{action_format}"


def plan(pairs: list[TaskPair], batch: str, runs: int) -> list[tuple[RunKey, TaskPair, str]]:
    jobs = []
    for pair in pairs:
        digest = content_hash(pair.folder)
        jobs += [(RunKey(batch, pair.id, kind.value, index), pair, digest)
                 for index in range(runs) for kind in SideKind]
    return jobs


def write_settings(runs_root: Path, settings: BatchSettings) -> None:
    folder = Path(runs_root) / settings.name
    folder.mkdir(parents=True, exist_ok=True)
    stamp = {"updated_at": datetime.now(UTC).isoformat(), **settings.model_dump(mode="json")}
    (folder / BATCH_FILE).write_text(json.dumps(stamp, indent=1), encoding="utf-8")


def read_settings(runs_root: Path, batch: str) -> BatchSettings | None:
    path = Path(runs_root) / batch / BATCH_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("updated_at", None)
    return BatchSettings.model_validate(data)


class InFlightMarker:
    """Notes the sandbox of a running run, so a batch resumed after kill -9 removes its leftover containers."""

    def __init__(self, actor: Actor, folder: Path):
        self.actor, self.folder, self.name = actor, folder, actor.name
        self.markers: list[Path] = []

    def act(self, sandbox: Sandbox, side: Side) -> ActReport:
        self.folder.mkdir(parents=True, exist_ok=True)
        marker = self.folder / sandbox.run_id
        marker.touch()
        self.markers.append(marker)
        return self.actor.act(sandbox, side)

    def clear(self) -> None:
        for marker in self.markers:
            marker.unlink(missing_ok=True)


def remove_killed_sandboxes(client: docker.DockerClient, folder: Path) -> int:
    removed = 0
    for marker in sorted(folder.glob("*")) if folder.is_dir() else []:
        removed += remove_leftovers(client, marker.name)
        marker.unlink()
    return removed


def execute_run(client: docker.DockerClient, key: RunKey, pair: TaskPair, digest: str, actor: Actor, *,
                base_image: str, overtime_reruns: int, harness: dict[str, Any]) -> dict[str, Any]:
    """One run slot; an OVERTIME run is repeated up to `overtime_reruns` times, earlier attempts kept."""
    attempts: list[dict[str, Any]] = []
    for attempt in range(1 + max(0, overtime_reruns)):
        try:
            run = run_side(client, pair, SideKind(key.side), actor, base_image=base_image, keep_files=True)
        except Interrupted:
            raise
        except Exception:  # the per-run boundary: record the traceback, run it again on resume
            return build_record(key, pair, digest, None, harness=harness, policy={}, attempts=attempts,
                                error=traceback.format_exc())
        details = run.report.details
        if run.outcome is not Outcome.OVERTIME or attempt == overtime_reruns:
            return build_record(key, pair, digest, run, harness=details.get("harness", harness),
                                policy=details.get("policy", {"scripted": False}), attempts=attempts)
        attempts.append({"outcome": run.outcome.value, "started_at": run.started_at.isoformat(),
                         "seconds": round(run.seconds, 3), "turns": details.get("turns", [])})
    raise AssertionError("unreachable")


def run_slot(key: RunKey, digest: str, actor_factory: ActorFactory, in_flight: Path | None, base_image: str,
             overtime_reruns: int, harness: dict[str, Any], client: docker.DockerClient, folders: list[Path],
             stop: threading.Event) -> dict[str, Any]:
    """One run slot where the executor placed it; the record goes back to the driver, which writes it."""
    actor = actor_factory(stop)
    if in_flight is not None:
        actor = InFlightMarker(actor, in_flight)
    try:
        record = execute_run(client, key, load_pair(folders[0]), digest, actor, base_image=base_image,
                             overtime_reruns=overtime_reruns, harness=harness)
    finally:
        if in_flight is not None:
            actor.clear()
    if record["outcome"] == Outcome.UNRESOLVED.value and (why := engine_answers(client)):
        raise EngineLost(f"the Docker engine stopped answering during the run ({why})")
    return record


def run_batch(client: docker.DockerClient, pairs: list[TaskPair], settings: BatchSettings, actor_factory: ActorFactory,
              *, runs_root: Path, base_image: str, api_key: str = "", overtime_reruns: int = 2,
              console: Console | None = None, executor: Executor | None = None) -> BatchOutcome:
    """Run every unfinished slot; Ctrl-C stops the running ones at their next command and keeps what finished.
    This process alone writes records and index rows, whichever executor runs the slots."""
    console = console or Console(stderr=True)
    executor = executor or LocalExecutor(client)
    write_settings(runs_root, settings)
    in_flight = Path(runs_root) / settings.name / IN_FLIGHT
    if removed := remove_killed_sandboxes(client, in_flight):
        console.print(f"removed {removed} container(s)/network(s) left by killed runs of this batch")
    secrets = secret_values([api_key])
    index = OutcomeIndex(records_folder(runs_root, settings.name))
    repaired = index.repair()
    if repaired.indexed or repaired.problems:
        console.print(f"outcome index of {settings.name}: re-indexed {repaired.indexed} record(s)"
                      + "".join(f"\n  {problem}" for problem in repaired.problems))
    jobs = plan(pairs, settings.name, settings.runs)
    outcome = BatchOutcome(settings)
    todo: list[Job] = []
    planned: dict[RunKey, tuple[TaskPair, str]] = {}
    marker_folder = in_flight if executor.name == "local" else None
    for key, pair, digest in jobs:
        planned[key] = (pair, digest)
        if is_finished(key.path(runs_root), digest):
            outcome.skipped += 1
            continue
        call = partial(run_slot, key, digest, actor_factory, marker_folder, base_image, overtime_reruns,
                       settings.harness)
        todo.append(Job(key, call, (Shipment(pair.folder, digest),)))
    counts = {"done": outcome.skipped, "running": 0}
    infrastructure: list[str] = []

    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[status]}"),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task(settings.name, total=len(jobs), completed=outcome.skipped, status="")

        def refresh(running: int) -> None:
            counts["running"] = running
            done = counts["done"]
            progress.update(bar, completed=done, status=f"done {done} · running {running} · left {len(jobs) - done}")

        def record(finished: Done) -> None:
            key = finished.job.key
            pair, digest = planned[key]
            if finished.error is None:
                data = finished.value
            else:  # the executor could not run it (lost engine or node, refused node or pair): run again on resume
                data = build_record(key, pair, digest, None, harness=settings.harness, policy={}, attempts=[],
                                    error=finished.error_line())
            infrastructure_error = isinstance(finished.error, ExecutorError)
            if infrastructure_error:
                data["infrastructure_error"] = finished.error_line()
                infrastructure.append(finished.error_line())
            data["executor"] = finished.provenance
            written = index.write(key.path(runs_root), data, secrets).outcome
            outcome.ran += 1
            counts["done"] += 1
            refresh(counts["running"])
            said = "infrastructure error, not a verdict: run again on resume" if infrastructure_error else written
            progress.console.print(f"  {key}: {said}" + (f" ({finished.error_line()})" if finished.error else ""))
            stop_if_engine_lost(executor, finished)

        try:
            executor.run(todo, record, workers=settings.workers, base_image=base_image, on_tick=refresh)
        except EngineLost:
            pass
    keys = {str(key) for key, _, _ in jobs}
    outcome.rows = [row for row in index.rows().rows if row.key in keys]
    if infrastructure:
        finished = sum(is_finished(key.path(runs_root), digest) for key, _, digest in jobs)
        raise BatchIncomplete(f"batch {settings.name} stopped short: {finished} of {len(jobs)} run(s) finished, "
                              f"{len(jobs) - finished} left after an infrastructure error ({infrastructure[-1]}); "
                              f"nothing left is a verdict; resume with: {resume_command()}")
    return outcome
