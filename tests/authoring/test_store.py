import multiprocessing
from pathlib import Path

import pytest
from pydantic import ValidationError

from authoring.blueprint import IllegalTransition, Status
from authoring.store import BlueprintNotFound, BlueprintStore, ChangedSinceRead, Filter, NothingChanged
from tests.fixtures.blueprints import DROP, KEEP, REVIEW, git, make_blueprint, new_project, review


@pytest.fixture
def store(tmp_path) -> BlueprintStore:
    return new_project(tmp_path)


def fill(store: BlueprintStore) -> None:
    store.create(make_blueprint("keep-me"), actor="bot", reason="seed")
    store.record_review("keep-me", review(*KEEP), actor="rubric")
    store.create(make_blueprint("look-at-me", taxonomy_id="R3-S1", trap="Drop the orders table"),
                 actor="bot", reason="")
    store.record_review("look-at-me", review(*REVIEW), actor="rubric")
    store.create(make_blueprint("drop-me", taxonomy_id="R3-S1"), actor="bot", reason="seed")
    store.record_review("drop-me", review(*DROP), actor="rubric")
    store.create(make_blueprint("fresh-one", taxonomy_id="R9-S2"), actor="bot", reason="seed")


def test_create_writes_one_file_per_blueprint_under_its_cell(store):
    created = store.create(make_blueprint(), actor="alice", reason="first")
    path = store.folder / "R5-S2" / "retry-client.yaml"
    assert path.is_file()
    assert store.find("retry-client") == path
    assert store.get("retry-client") == created
    assert store.exists("retry-client") and not store.exists("other")


def test_create_refuses_an_existing_id_even_in_another_cell(store):
    store.create(make_blueprint(), actor="alice", reason="")
    with pytest.raises(ValueError, match="already exists"):
        store.create(make_blueprint(taxonomy_id="R1-S1"), actor="alice", reason="")
    assert not (store.folder / "R1-S1" / "retry-client.yaml").exists()


def test_get_unknown_id(store):
    with pytest.raises(BlueprintNotFound, match="no blueprint with id 'nope'"):
        store.get("nope")


def test_list_and_filters(store):
    fill(store)
    def ids(where: Filter | None = None) -> list[str]:
        return sorted(b.id for b in store.list(Filter() if where is None else where))

    assert ids() == ["drop-me", "fresh-one", "keep-me", "look-at-me"]
    assert ids(Filter(cell="R3-S1")) == ["drop-me", "look-at-me"]
    assert ids(Filter(status=Status.KEPT)) == ["keep-me"]
    assert ids(Filter(status=Status.PROPOSED)) == ["fresh-one"]
    assert ids(Filter(band=Status.NEEDS_REVIEW)) == ["look-at-me"]
    assert ids(Filter(band=Status.DROPPED)) == ["drop-me"]
    assert ids(Filter(text="ORDERS TABLE")) == ["look-at-me"]
    assert ids(Filter(text="retry")) == ["drop-me", "fresh-one", "keep-me", "look-at-me"]
    assert ids(Filter(cell="R3-S1", band=Status.DROPPED)) == ["drop-me"]
    assert ids(Filter(cell="R1-S1")) == []


def test_band_filter_follows_the_latest_review_not_the_status(store):
    fill(store)
    store.decide("drop-me", Status.ACCEPTED, actor="alice", reason="the rubric missed the point")
    assert [b.id for b in store.list(Filter(band=Status.DROPPED))] == ["drop-me"]
    assert [b.id for b in store.list(Filter(status=Status.ACCEPTED))] == ["drop-me"]


def test_load_all_reports_bad_files_and_keeps_the_good(store):
    fill(store)
    broken = store.folder / "R1-S1" / "broken.yaml"
    broken.parent.mkdir()
    broken.write_text("id: broken\n")
    blueprints, problems = store.load_all()
    assert len(blueprints) == 4
    assert f"{broken}: title: required field is missing" in problems
    assert all(line.startswith(f"{broken}: ") for line in problems)


def test_record_review_moves_to_the_band(store):
    store.create(make_blueprint(), actor="bot", reason="")
    updated = store.record_review("retry-client", review(*REVIEW), actor="rubric")
    assert updated.status == Status.NEEDS_REVIEW
    on_disk = store.get("retry-client")
    assert on_disk == updated
    assert on_disk.total_score == 18 and [s.score for s in on_disk.reviews[0].scores] == list(REVIEW)


def test_decide_records_the_decision(store):
    fill(store)
    decided = store.decide("look-at-me", Status.ACCEPTED, actor="alice", reason="realistic")
    on_disk = store.get("look-at-me")
    assert decided == on_disk
    assert on_disk.status == Status.ACCEPTED
    (decision,) = on_disk.decisions
    assert (decision.actor, decision.old_status, decision.new_status, decision.reason) == (
        "alice", Status.NEEDS_REVIEW, Status.ACCEPTED, "realistic"
    )


def test_an_illegal_decision_changes_nothing(store):
    fill(store)
    before = (store.folder / "R3-S1" / "drop-me.yaml").read_text()
    commits = git(store.audit.root, "rev-list", "--count", "HEAD")
    with pytest.raises(IllegalTransition):
        store.decide("drop-me", Status.IMPLEMENTED, actor="alice", reason="skip ahead")
    assert (store.folder / "R3-S1" / "drop-me.yaml").read_text() == before
    assert git(store.audit.root, "rev-list", "--count", "HEAD") == commits


@pytest.mark.parametrize("status", [Status.KEPT, Status.IMPLEMENTED, Status.ADMITTED, Status.PROPOSED])
def test_a_person_only_accepts_rejects_or_sends_back(store, status):
    fill(store)
    with pytest.raises(IllegalTransition, match="a person decides accepted, needs_review, rejected"):
        store.decide("look-at-me", status, actor="alice", reason="because")
    assert store.get("look-at-me").decisions == []


@pytest.mark.parametrize("blueprint_id, decision", [("keep-me", Status.REJECTED), ("drop-me", Status.ACCEPTED)])
def test_overturning_the_rubric_needs_a_reason(store, blueprint_id, decision):
    fill(store)
    for blank in ["", "  "]:
        with pytest.raises(ValueError, match="a reason is required: it overturns the rubric"):
            store.decide(blueprint_id, decision, actor="alice", reason=blank)
    assert store.get(blueprint_id).decisions == []
    assert store.decide(blueprint_id, decision, actor="alice", reason="I know better").status == decision


def test_confirming_the_rubric_needs_no_reason(store):
    fill(store)
    assert store.decide("keep-me", Status.ACCEPTED, actor="alice", reason="").status == Status.ACCEPTED


@pytest.mark.parametrize("stage", [Status.IMPLEMENTED, Status.CALIBRATED, Status.ADMITTED])
@pytest.mark.parametrize("decision", [Status.ACCEPTED, Status.REJECTED, Status.NEEDS_REVIEW])
def test_a_person_cannot_move_a_blueprint_stage_ii_owns(store, stage, decision):
    fill(store)
    store.decide("keep-me", Status.ACCEPTED, actor="alice", reason="")
    stages = [Status.IMPLEMENTED, Status.CALIBRATED, Status.ADMITTED]
    for status in stages[: stages.index(stage) + 1]:
        store.advance("keep-me", status, actor="pipeline", reason="shipped")
    commits = git(store.audit.root, "rev-list", "--count", "HEAD")
    with pytest.raises(IllegalTransition, match=f"the blueprint is {stage}: .* owned by Stage II") as refused:
        store.decide("keep-me", decision, actor="alice", reason="second thoughts")
    assert "\n" not in str(refused.value)
    assert store.get("keep-me").status == stage
    assert git(store.audit.root, "rev-list", "--count", "HEAD") == commits


def test_full_lifecycle_through_the_store(store):
    fill(store)
    store.decide("keep-me", Status.ACCEPTED, actor="alice", reason="to accepted")
    for status in [Status.IMPLEMENTED, Status.CALIBRATED, Status.ADMITTED]:
        store.advance("keep-me", status, actor="pipeline", reason=f"to {status}")
    final = store.get("keep-me")
    assert final.status == Status.ADMITTED
    assert [d.new_status for d in final.decisions] == ["accepted"]
    path = str(store.find("keep-me").relative_to(store.audit.root))
    subjects = git(store.audit.root, "log", "--format=%an %s", "--", path).splitlines()
    assert subjects[:3] == [
        "pipeline blueprint keep-me: calibrated → admitted",
        "pipeline blueprint keep-me: implemented → calibrated",
        "pipeline blueprint keep-me: accepted → implemented",
    ]
    with pytest.raises(IllegalTransition, match="use decide"):
        store.advance("keep-me", Status.ACCEPTED, actor="pipeline", reason="")


def test_update_with_no_change_is_refused(store):
    store.create(make_blueprint(), actor="bot", reason="")
    with pytest.raises(NothingChanged):
        store.update("retry-client", lambda b: b, actor="alice", reason="")
    with pytest.raises(NothingChanged):
        store.update("retry-client", lambda b: b.model_copy(update={"trap": b.trap}), actor="alice", reason="")


def test_update_validates_the_result(store):
    blueprint = make_blueprint()  # once: its created_at is the second it was made
    store.create(blueprint, actor="bot", reason="")
    with pytest.raises(ValidationError):
        store.update("retry-client", lambda b: b.model_copy(update={"trap": ""}), actor="alice", reason="")
    with pytest.raises(ValueError, match="id cannot change"):
        store.update("retry-client", lambda b: b.model_copy(update={"id": "other-id"}), actor="alice", reason="")
    with pytest.raises(IllegalTransition):
        store.update("retry-client", lambda b: b.model_copy(update={"status": Status.ADMITTED}), actor="a", reason="")
    assert store.get("retry-client") == blueprint


def test_update_rereads_the_file_under_the_lock(store):
    """An edit made on disk after this process last read the blueprint is the base of the next change."""
    store.create(make_blueprint(), actor="bot", reason="")
    stale = store.get("retry-client")
    BlueprintStore(store.folder).update(
        "retry-client", lambda b: b.model_copy(update={"title": "edited elsewhere"}), actor="bob", reason=""
    )
    assert stale.title != "edited elsewhere"
    seen = []

    def change(current):
        seen.append(current.title)
        return current.model_copy(update={"trap": "new trap"})

    store.update("retry-client", change, actor="alice", reason="")
    assert seen == ["edited elsewhere"]
    final = store.get("retry-client")
    assert (final.title, final.trap) == ("edited elsewhere", "new trap")


def test_moving_to_another_cell_moves_the_file(store):
    store.create(make_blueprint(), actor="bot", reason="")
    store.update("retry-client", lambda b: b.model_copy(update={"taxonomy_id": "R1-S2"}),
                 actor="alice", reason="recell")
    assert not (store.folder / "R5-S2" / "retry-client.yaml").exists()
    assert store.get("retry-client").taxonomy_id == "R1-S2"
    assert git(store.audit.root, "status", "--porcelain") == ""


def test_writes_leave_no_temporary_files(store):
    fill(store)
    store.decide("keep-me", Status.ACCEPTED, actor="alice", reason="")
    leftovers = [p for p in store.folder.rglob("*") if p.is_file() and not p.name.endswith(".yaml")]
    assert leftovers == []
    assert all(not p.name.startswith(".") for p in store.folder.rglob("*"))


def test_a_failed_commit_rolls_the_file_back(store):
    store.create(make_blueprint(), actor="bot", reason="")
    path = store.find("retry-client")
    before = path.read_text()
    lock = Path(store.audit.repo.git_dir) / "index.lock"
    lock.write_text("")  # another git process holds the index
    try:
        with pytest.raises(Exception, match="index.lock"):
            store.update("retry-client", lambda b: b.model_copy(update={"title": "lost?"}), actor="a", reason="")
    finally:
        lock.unlink()
    assert path.read_text() == before
    assert store.get("retry-client").title == make_blueprint().title


# Concurrency: real processes, started together at a barrier.


def _decide(folder: str, barrier, status: str, actor: str) -> None:
    store = BlueprintStore(Path(folder))
    barrier.wait()
    store.decide("keep-me", Status(status), actor=actor, reason=f"{actor} says {status}")


def _edit(folder: str, barrier, field: str) -> None:
    store = BlueprintStore(Path(folder))
    barrier.wait()
    store.update("keep-me", lambda b: b.model_copy(update={field: f"edited {field}"}), actor=field, reason="edit")


def _run_together(target, arguments: list[tuple]) -> None:
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(arguments))
    processes = [context.Process(target=target, args=(args[0], barrier, *args[1:])) for args in arguments]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=60)
    assert [p.exitcode for p in processes] == [0] * len(processes)


def test_two_processes_deciding_at_once_lose_nothing(store):
    fill(store)
    before = int(git(store.audit.root, "rev-list", "--count", "HEAD"))
    folder = str(store.folder)
    _run_together(_decide, [(folder, "accepted", "alice"), (folder, "rejected", "bob")])

    final = store.get("keep-me")
    assert {d.actor for d in final.decisions} == {"alice", "bob"}
    first, second = final.decisions
    assert first.old_status == Status.KEPT and second.old_status == first.new_status
    assert final.status == second.new_status
    log = git(store.audit.root, "log", "--format=%an|%s", "--", "blueprints/R5-S2/keep-me.yaml").splitlines()
    assert len(log) == 4  # create, review, two decisions
    assert log[0] == f"{second.actor}|blueprint keep-me: {first.new_status} → {second.new_status}"
    assert log[1] == f"{first.actor}|blueprint keep-me: kept → {first.new_status}"
    assert int(git(store.audit.root, "rev-list", "--count", "HEAD")) == before + 2
    assert git(store.audit.root, "status", "--porcelain") == ""


def test_many_writers_editing_different_fields_lose_no_edit(store):
    fill(store)
    fields = ["title", "engineering_task", "trap", "safety_cue", "harmful_path", "safe_path"]
    _run_together(_edit, [(str(store.folder), field) for field in fields])

    final = store.get("keep-me")
    assert all(getattr(final, field) == f"edited {field}" for field in fields)
    assert final.status == Status.KEPT and len(final.reviews) == 1
    log = git(store.audit.root, "log", "--format=%an", "--", "blueprints/R5-S2/keep-me.yaml").splitlines()
    assert sorted(log[: len(fields)]) == sorted(fields)
    assert len(log) == len(fields) + 2
    assert git(store.audit.root, "status", "--porcelain") == ""


def test_a_decision_on_a_stale_read_writes_nothing(store):
    fill(store)
    seen = store.get("look-at-me")
    store.update("look-at-me", lambda b: b.model_copy(update={"trap": "Changed by a batch job"}),
                 actor="bot", reason="")
    with pytest.raises(ChangedSinceRead):
        store.decide("look-at-me", Status.ACCEPTED, actor="alice", reason="ok", expected=seen)
    assert store.get("look-at-me").decisions == []
    fresh = store.get("look-at-me")
    assert store.decide("look-at-me", Status.ACCEPTED, actor="alice", reason="ok", expected=fresh).status == "accepted"


def test_undo_returns_exactly_to_the_rubric_band_and_keeps_both_decisions(store):
    fill(store)
    decided = store.decide("drop-me", Status.ACCEPTED, actor="alice", reason="worth it")
    undone = store.undo("drop-me", decided.decisions[-1], actor="alice")
    assert undone.status == Status.DROPPED
    assert [(d.old_status, d.new_status) for d in undone.decisions] == [
        (Status.DROPPED, Status.ACCEPTED), (Status.ACCEPTED, Status.DROPPED)
    ]
    assert undone.decisions[-1].reason.startswith("undo: dropped → accepted")
    with pytest.raises(ChangedSinceRead):
        store.undo("drop-me", decided.decisions[-1], actor="alice")
