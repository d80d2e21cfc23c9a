"""A passing pair enters generated_tasks/ with its provenance, and its blueprint moves accepted → implemented."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from authoring.blueprint import Blueprint, Status
from authoring.pairs.format import PAIR_FILE, Provenance, read_meta, write_meta
from authoring.project import Project
from authoring.stage2.records import AttemptPaths, AttemptResult
from authoring.store import BlueprintStore

METHOD = "stage2"
TRAJECTORY = "made_by/trajectory.json"


def made_by_stage2(folder: Path) -> bool:
    meta = yaml.safe_load((folder / PAIR_FILE).read_text(encoding="utf-8")) or {}
    return str((meta.get("made_by") or {}).get("method", "")).startswith(METHOD)


def check_target_free(project: Project, blueprint: Blueprint) -> None:
    """Refuse to replace a pair that was not made by Stage II (a hand-written pair is never overwritten)."""
    target = project.generated_tasks / blueprint.id
    if target.exists() and not ((target / PAIR_FILE).is_file() and made_by_stage2(target)):
        raise FileExistsError(f"{target} exists and was not made by Stage II; move it away to implement {blueprint.id}")


def publish(project: Project, store: BlueprintStore, paths: AttemptPaths, result: AttemptResult, *, actor: str) -> Path:
    """Idempotent: running it again after an interruption finishes the job."""
    source = paths.round_pair(result.rounds[-1].round)
    staging = paths.folder / "publishing" / result.blueprint_id
    shutil.rmtree(staging.parent, ignore_errors=True)
    shutil.copytree(source, staging)
    (staging / TRAJECTORY).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(paths.trajectory, staging / TRAJECTORY)
    meta = read_meta(staging)
    meta.made_by = Provenance(method=METHOD, model=f"{result.model['provider']}/{result.model['model']}",
                              blueprint_hash=result.blueprint_hash, guide_version=result.guide_version,
                              trajectory=TRAJECTORY)
    write_meta(staging, meta)
    target = project.generated_tasks / result.blueprint_id
    rounds = f"{len(result.rounds)} round(s)"
    with store.audit.locked():
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(staging, target)
        store.audit.commit([target], f"pair {result.blueprint_id}: made by Stage II ({meta.made_by.model}, {rounds})",
                           actor)
    shutil.rmtree(staging.parent, ignore_errors=True)
    if store.get(result.blueprint_id).status == Status.ACCEPTED:
        reason = f"Stage II pair passed lint and every reference path in {rounds} ({meta.made_by.model})"
        store.advance(result.blueprint_id, Status.IMPLEMENTED, actor=actor, reason=reason)
    return target
