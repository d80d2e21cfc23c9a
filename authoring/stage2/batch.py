"""Many blueprints at once: resumable (finished blueprints are skipped, interrupted attempts restart cleanly)."""

from __future__ import annotations

import json
import shutil
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass

import docker

from authoring.blueprint import Blueprint, Status
from authoring.project import Project
from authoring.sandbox.teardown import remove_leftovers
from authoring.sandbox.agent_environment import Interrupted
from authoring.stage2.attempt import ImplementConfig, run_attempt
from authoring.stage2.publish import check_target_free, publish
from authoring.stage2.records import FINISHED, AttemptPaths, AttemptResult, attempts, next_attempt, read_result, write_result
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
        raise ValueError("give blueprint ids or --accepted (not both)")
    chosen = store.list() if accepted else [store.get(i) for i in ids]
    wanted = {Status.ACCEPTED, Status.IMPLEMENTED} if ids else {Status.ACCEPTED}
    for blueprint in chosen:
        if ids and blueprint.status not in wanted:
            raise ValueError(f"blueprint {blueprint.id} is {blueprint.status}; only accepted blueprints are implemented")
    return [b for b in chosen if b.status in wanted]


def runs_root(project: Project):
    return project.runs / "stage2"


def resume_point(client: docker.DockerClient, project: Project, blueprint_id: str) -> tuple[AttemptPaths, AttemptResult | None]:
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


def implement_one(client: docker.DockerClient, project: Project, store: BlueprintStore, blueprint: Blueprint,
                  config: ImplementConfig, stop: threading.Event, *, retry_failed: bool = False) -> BlueprintOutcome:
    if blueprint.status == Status.IMPLEMENTED:
        return BlueprintOutcome(blueprint.id, None, skipped="already implemented")
    paths, previous = resume_point(client, project, blueprint.id)
    if previous is not None and previous.status == "implemented":
        previous.pair = str(publish(project, store, paths, previous, actor=ACTOR))
        return BlueprintOutcome(blueprint.id, previous)
    if previous is not None and previous.status in FINISHED and not retry_failed:
        return BlueprintOutcome(blueprint.id, previous, skipped=f"failed in attempt {previous.attempt} (see {paths.report})")
    if previous is not None:
        paths = next_attempt(runs_root(project), blueprint.id)
    try:
        check_target_free(project, blueprint)
        result = run_attempt(client, project, blueprint, paths, config, stop)
    except Interrupted:
        raise
    except Exception as error:  # the per-blueprint boundary of a batch: record the traceback, go on with the rest
        result = AttemptResult(blueprint_id=blueprint.id, attempt=paths.number, status="error",
                               reason=" ".join(f"{type(error).__name__}: {error}".split())[:500],
                               model=config.model.public(), traceback=traceback.format_exc())
        paths.folder.mkdir(parents=True, exist_ok=True)
    write_result(paths, result)
    if result.status == "implemented":
        result.pair = str(publish(project, store, paths, result, actor=ACTOR))
        write_result(paths, result)
    return BlueprintOutcome(blueprint.id, result)


def implement_batch(client: docker.DockerClient, project: Project, store: BlueprintStore, blueprints: list[Blueprint],
                    config: ImplementConfig, *, workers: int = 1, retry_failed: bool = False,
                    on_done: Callable[[BlueprintOutcome], None] = lambda outcome: None) -> list[BlueprintOutcome]:
    """Ctrl-C stops every running attempt at its next command; those attempts restart cleanly next time."""
    stop = threading.Event()
    outcomes: list[BlueprintOutcome] = []
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        pending = {pool.submit(implement_one, client, project, store, b, config, stop, retry_failed=retry_failed)
                   for b in blueprints}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    outcomes.append(future.result())
                    on_done(outcomes[-1])
        except BaseException:
            stop.set()
            for future in pending:
                future.cancel()
            raise
    return outcomes
