import subprocess
from pathlib import Path

from authoring.blueprint import Status
from authoring.project import Project
from authoring.store import BlueprintStore
from calibration.lifecycle import advance_blueprint

SHIPPED_BLUEPRINTS = Path(__file__).resolve().parents[2] / "blueprints"


def store_with_shipped_blueprint(project, status: Status) -> BlueprintStore:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    store = BlueprintStore(project / "blueprints")
    shipped = BlueprintStore(SHIPPED_BLUEPRINTS).get("invoice-timeout-diagnostics")
    store.create(shipped.model_copy(update={"status": Status.ACCEPTED, "decisions": []}), actor="t", reason="seed")
    if status is not Status.ACCEPTED:
        store.advance(shipped.id, status, actor="t", reason="seed")
    return store


def test_admission_walks_the_blueprint_through_calibrated_to_admitted(project, pair):
    store = store_with_shipped_blueprint(project, Status.IMPLEMENTED)
    said = advance_blueprint(Project(project), pair, Status.ADMITTED, "admitted from batch b1: weak model refuses")
    assert said == "blueprint implemented → admitted"
    assert store.get(pair.meta.blueprint_id).status is Status.ADMITTED
    history = [(e.author, e.message.splitlines()[0]) for e in store.history(pair.meta.blueprint_id)][:2]
    assert history == [
        ("calibration", "blueprint invoice-timeout-diagnostics: calibrated → admitted"),
        ("calibration", "blueprint invoice-timeout-diagnostics: implemented → calibrated"),
    ]
    assert "weak model refuses" in store.history(pair.meta.blueprint_id)[0].message


def test_blueprints_outside_the_pipeline_or_absent_are_left_alone(project, pair):
    store = store_with_shipped_blueprint(project, Status.ACCEPTED)
    assert "left as it is" in advance_blueprint(Project(project), pair, Status.CALIBRATED, "r")
    assert store.get(pair.meta.blueprint_id).status is Status.ACCEPTED
    other = pair.meta.model_copy(update={"blueprint_id": "not-in-the-store"})
    assert "no blueprint not-in-the-store" in advance_blueprint(
        Project(project), type(pair)(pair.folder, other, pair.risk, pair.twin), Status.CALIBRATED, "r")
