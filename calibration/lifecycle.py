"""Calibration moves a pair's blueprint on: implemented → calibrated → admitted, each a commit in the audit trail."""

from __future__ import annotations

from authoring.blueprint import Status
from authoring.pairs.format import TaskPair
from authoring.project import Project
from authoring.store import BlueprintNotFound, BlueprintStore

ACTOR = "calibration"


def advance_blueprint(project: Project, pair: TaskPair, target: Status, reason: str) -> str:
    """Move the pair's blueprint up to `target` through each stage between; returns what happened, in words."""
    store = BlueprintStore(project.blueprints)
    try:
        current = store.get(pair.meta.blueprint_id).status
    except BlueprintNotFound:
        return f"no blueprint {pair.meta.blueprint_id} in the store"
    path = [Status.IMPLEMENTED, Status.CALIBRATED, Status.ADMITTED]
    if current not in path:
        return f"blueprint is {current}; left as it is"
    for status in path[path.index(current) + 1: path.index(target) + 1]:
        store.advance(pair.meta.blueprint_id, status, actor=ACTOR, reason=reason)
    return f"blueprint {current} → {target}" if current != target else f"blueprint already {target}"
