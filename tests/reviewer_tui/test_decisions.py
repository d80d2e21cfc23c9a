from __future__ import annotations

import pytest

from authoring.blueprint import Status
from reviewer_tui import app as app_module
from reviewer_tui.screens.detail import DetailScreen
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.screens.reason import ReasonScreen
from reviewer_tui.widgets.queue_table import QueueTable
from tests.reviewer_tui.conftest import last_commit, until

pytestmark = pytest.mark.asyncio


async def highlight(pilot, blueprint_id: str) -> None:
    table = pilot.app.screen.query_one(QueueTable)
    table.cursor = [r.id for r in table.rows].index(blueprint_id)
    await pilot.pause()


async def test_accepting_with_a_reason_is_a_commit_by_the_actor(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        await pilot.press("a")
        assert isinstance(app.screen, ReasonScreen)
        await pilot.press(*"realistic enough", "enter")
        await pilot.pause()
        assert isinstance(app.screen, QueueScreen)
    assert store.get("pip-extra-index").status == Status.ACCEPTED
    author, message = last_commit(store)
    assert author == "Ada Reviewer"
    assert message.startswith("blueprint pip-extra-index: needs_review → accepted")
    assert "actor: Ada Reviewer" in message and "reason: realistic enough" in message
    decision = store.get("pip-extra-index").decisions[-1]
    assert (decision.actor, decision.reason) == ("Ada Reviewer", "realistic enough")


async def test_overturning_the_rubric_without_a_reason_is_refused(app, store):
    before = last_commit(store)
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "env-file-to-paste")
        await pilot.press("r")
        assert "overturns the rubric's kept" in str(app.screen.query_one("#reason-hint").render())
        await pilot.press("enter")
        assert isinstance(app.screen, ReasonScreen)
        assert "needs a reason" in str(app.screen.query_one("#reason-error").render())
        await pilot.press("escape")
        assert isinstance(app.screen, QueueScreen)
    assert store.get("env-file-to-paste").status == Status.KEPT
    assert last_commit(store) == before


async def test_an_illegal_decision_is_not_offered(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        await pilot.press("b")
        assert isinstance(app.screen, QueueScreen)
    assert store.get("pip-extra-index").status == Status.NEEDS_REVIEW


async def test_undo_takes_back_the_last_decision_and_keeps_both_in_history(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "fake-benchmark")
        await pilot.press("r", *"made up numbers", "enter", "u")
        await pilot.pause()
    blueprint = store.get("fake-benchmark")
    assert blueprint.status == Status.NEEDS_REVIEW
    assert [d.new_status for d in blueprint.decisions] == [Status.REJECTED, Status.NEEDS_REVIEW]
    assert blueprint.decisions[-1].reason == "undo: needs_review → rejected (made up numbers)"
    subjects = [e.message.splitlines()[0] for e in store.history("fake-benchmark")][:2]
    assert subjects == ["blueprint fake-benchmark: rejected → needs_review",
                        "blueprint fake-benchmark: needs_review → rejected"]


async def test_undo_of_a_decision_on_a_kept_blueprint_returns_it_exactly_to_kept(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "env-file-to-paste")
        await pilot.press("a", "enter", "u")
        await pilot.pause()
    blueprint = store.get("env-file-to-paste")
    assert blueprint.status == Status.KEPT
    assert [(d.old_status, d.new_status) for d in blueprint.decisions] == [
        (Status.KEPT, Status.ACCEPTED), (Status.ACCEPTED, Status.KEPT)
    ]


async def test_a_decision_on_a_row_changed_on_disk_is_not_made(app, store, monkeypatch):
    monkeypatch.setattr(app_module, "STORE_POLL_SECONDS", 3600.0)  # the change stays unseen until the key is pressed
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        store.decide("pip-extra-index", Status.REJECTED, actor="batch", reason="from elsewhere")
        await pilot.press("a")
        assert isinstance(app.screen, QueueScreen)
        row = app.catalog.rows["pip-extra-index"]
        assert row.status == "rejected"
    assert store.get("pip-extra-index").status == Status.REJECTED


async def test_the_detail_view_reloads_when_the_file_changes_on_disk(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "ci-hook-persist")
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        store.decide("ci-hook-persist", Status.ACCEPTED, actor="batch", reason="from elsewhere")
        await until(pilot, lambda: app.screen.seen.blueprint.status == Status.ACCEPTED
                    and "accepted" in str(app.screen.query_one("#heading").render()))
        assert app.screen.seen.blueprint.status == Status.ACCEPTED
        assert "accepted" in str(app.screen.query_one("#heading").render())


async def test_deciding_from_the_detail_view(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "force-push-cleanup")
        await pilot.press("enter", "a")
        assert "overturns the rubric's dropped" in str(app.screen.query_one("#reason-hint").render())
        await pilot.press(*"the rubric misread it", "enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        assert app.screen.blueprint_id == "tls-verify-off", "the detail view moves on to the next row"
    assert store.get("force-push-cleanup").status == Status.ACCEPTED
    assert last_commit(store)[1].splitlines()[0] == "blueprint force-push-cleanup: dropped → accepted"


async def test_an_implemented_blueprint_is_not_a_persons_to_move(app, store):
    store.decide("pip-extra-index", Status.ACCEPTED, actor="Bob", reason="clear trap")
    store.advance("pip-extra-index", Status.IMPLEMENTED, actor="stage2", reason="shipped")
    before = last_commit(store)
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        await pilot.press("r")
        assert isinstance(app.screen, QueueScreen), "asked a reason for a move it cannot make"
        assert ("pip-extra-index: the blueprint is implemented: from implemented on, its status is owned by "
                "Stage II, not by a person") in [str(n.message) for n in app._notifications]
        await pilot.press("enter", "a")
        assert isinstance(app.screen, DetailScreen)
        await pilot.press("escape", "slash", *"cell:S2", "escape", "R")
        question = app.screen.question
        assert "Reject all 2 blueprint(s) shown" in question and "1 shown cannot become rejected" in question
    assert store.get("pip-extra-index").status == Status.IMPLEMENTED
    assert last_commit(store) == before
