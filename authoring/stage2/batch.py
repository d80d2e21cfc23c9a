"""Many blueprints at once: resumable (finished blueprints are skipped, interrupted attempts restart cleanly)."""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import docker

from authoring.blueprint import Blueprint, Status
from authoring.errors import BadInput
from authoring.executor import Done, Executor, Job, LocalExecutor, Shipment, pack, unpack
from authoring.pairs.format import content_hash
from authoring.project import Project
from authoring.sandbox.agent_environment import Interrupted
from authoring.sandbox.teardown import remove_leftovers
from authoring.stage2.attempt import ImplementConfig, run_attempt
from authoring.stage2.publish import check_target_free, publish
from authoring.stage2.records import (
    FINISHED,
    AttemptPaths,
    AttemptResult,
    attempts,
    next_attempt,
    read_result,
    write_result,
)
from authoring.store import BlueprintStore

ACTOR = "v3ast implement"


@dataclass
class BlueprintOutcome:
    blueprint_id: str
    result: AttemptResult | None
    skipped: str = ""
    """Why nothing was run (already implemented, failed before and not retried)."""


def select(store: BlueprintStore, ids: list[str], *, accepted: bool) -> list[Blueprint]:
    if accepted == bool(ids):
        raise BadInput("give blueprint ids or --accepted (not both)")
    chosen = store.list() if accepted else [store.get(i) for i in ids]
    wanted = {Status.ACCEPTED, Status.IMPLEMENTED} if ids else {Status.ACCEPTED}
    for blueprint in chosen:
        if ids and blueprint.status not in wanted:
            raise BadInput(f"blueprint {blueprint.id} is {blueprint.status}; only accepted blueprints are implemented")
    return [b for b in chosen if b.status in wanted]


def runs_root(project: Project):
    return project.runs / "stage2"


def resume_point(client: docker.DockerClient, project: Project,
                 blueprint_id: str) -> tuple[AttemptPaths, AttemptResult | None]:
    """The latest finished attempt's result, or a clean folder for a new (or restarted) attempt."""
    existing = attempts(runs_root(project), blueprint_id)
    if existing:
        latest = existing[-1]
        result = read_result(latest)
        if result is None:
            if latest.state.is_file():
                remove_leftovers(client, json.loads(latest.state.read_text(encoding="utf-8"))["run_id"])
            shutil.rmtree(latest.folder)
            return latest, None
        return latest, result
    return next_attempt(runs_root(project), blueprint_id), None


def plan_one(client: docker.DockerClient, project: Project, store: BlueprintStore, blueprint: Blueprint, *,
             retry_failed: bool = False) -> BlueprintOutcome | AttemptPaths:
    """What is left to do for a blueprint: nothing (an outcome), or a new attempt in these paths."""
    if blueprint.status == Status.IMPLEMENTED:
        return BlueprintOutcome(blueprint.id, None, skipped="already implemented")
    paths, previous = resume_point(client, project, blueprint.id)
    if previous is not None and previous.status == "implemented":
        previous.pair = str(publish(project, store, paths, previous, actor=ACTOR))
        return BlueprintOutcome(blueprint.id, previous)
    if previous is not None and previous.status in FINISHED and not retry_failed:
        return BlueprintOutcome(blueprint.id, previous,
                                skipped=f"failed in attempt {previous.attempt} (see {paths.report})")
    if previous is not None:
        paths = next_attempt(runs_root(project), blueprint.id)
    check_target_free(project, blueprint)
    return paths


def attempt_here(project: Project, blueprint: Blueprint, paths: AttemptPaths, config: ImplementConfig,
                 client: docker.DockerClient, folders: list[Path], stop: threading.Event) -> tuple[AttemptResult, None]:
    return run_attempt(client, project, blueprint, paths, config, stop), None


def attempt_shipped(blueprint: Blueprint, number: int, config: ImplementConfig, client: docker.DockerClient,
                    folders: list[Path], stop: threading.Event) -> tuple[AttemptResult, bytes]:
    """An attempt on a worker: with the shipped templates, in a scratch folder returned whole to the driver."""
    with tempfile.TemporaryDirectory(prefix="v3ast-attempt-") as scratch:
        paths = AttemptPaths(Path(scratch) / blueprint.id / f"attempt-{number}", blueprint.id)
        result = run_attempt(client, Project(folders[0].parent), blueprint, paths, config, stop)
        return result, pack(paths.folder)


def finish_one(project: Project, store: BlueprintStore, blueprint: Blueprint, paths: AttemptPaths,
               config: ImplementConfig, finished: Done) -> BlueprintOutcome:
    """On the driver: keep the attempt's files, write its result, publish a passing pair."""
    if finished.error is None:
        result, archive = finished.value
        if archive is not None:
            unpack(archive, paths.folder.parent)
    else:  # the per-blueprint boundary of a batch: record the traceback, go on with the rest
        error = finished.error
        result = AttemptResult(blueprint_id=blueprint.id, attempt=paths.number, status="error",
                               reason=" ".join(f"{type(error).__name__}: {error}".split())[:500],
                               model=config.model.public(), traceback="".join(traceback.format_exception(error)))
        paths.folder.mkdir(parents=True, exist_ok=True)
    write_result(paths, result)
    if result.status == "implemented":
        result.pair = str(publish(project, store, paths, result, actor=ACTOR))
        write_result(paths, result)
    return BlueprintOutcome(blueprint.id, result)


def implement_one(client: docker.DockerClient, project: Project, store: BlueprintStore, blueprint: Blueprint,
                  config: ImplementConfig, stop: threading.Event, *, retry_failed: bool = False) -> BlueprintOutcome:
    planned = plan_one(client, project, store, blueprint, retry_failed=retry_failed)
    if isinstance(planned, BlueprintOutcome):
        return planned
    try:
        finished = Done(None, attempt_here(project, blueprint, planned, config, client, [], stop))
    except Interrupted:
        raise
    except Exception as error:
        finished = Done(None, error=error)
    return finish_one(project, store, blueprint, planned, config, finished)


def implement_batch(client: docker.DockerClient, project: Project, store: BlueprintStore, blueprints: list[Blueprint],
                    config: ImplementConfig, *, workers: int = 1, retry_failed: bool = False,
                    on_done: Callable[[BlueprintOutcome], None] = lambda outcome: None,
                    executor: Executor | None = None) -> list[BlueprintOutcome]:
    """Ctrl-C stops every running attempt at its next command; those attempts restart cleanly next time. The
    attempts run where the executor places them; this process alone writes results and publishes pairs."""
    executor = executor or LocalExecutor(client)
    outcomes: list[BlueprintOutcome] = []
    jobs: list[Job] = []
    templates = Shipment(project.templates, content_hash(project.templates))
    for blueprint in blueprints:
        try:
            planned = plan_one(client, project, store, blueprint, retry_failed=retry_failed)
        except Exception as error:  # e.g. the target pair exists: this blueprint's error, not the batch's
            paths = next_attempt(runs_root(project), blueprint.id)
            planned = finish_one(project, store, blueprint, paths, config, Done(None, error=error))
        if isinstance(planned, BlueprintOutcome):
            outcomes.append(planned)
            on_done(planned)
        elif executor.name == "local":
            jobs.append(Job((blueprint, planned), partial(attempt_here, project, blueprint, planned, config)))
        else:
            jobs.append(Job((blueprint, planned), partial(attempt_shipped, blueprint, planned.number, config),
                            (templates,)))

    def done(finished: Done) -> None:
        blueprint, paths = finished.job.key
        outcomes.append(finish_one(project, store, blueprint, paths, config, finished))
        on_done(outcomes[-1])

    executor.run(jobs, done, workers=workers, base_image=config.base_image)
    return outcomes
