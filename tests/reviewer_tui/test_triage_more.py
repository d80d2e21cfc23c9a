"""Bulk decisions, overturning a person, the queue following the disk, cell moves, markers, filters, the summary."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from authoring.blueprint import Status
from authoring.blueprint_files import write_atomically
from reviewer_tui import app as app_module
from reviewer_tui.screens.edit import EditScreen
from reviewer_tui.screens.problems import ProblemsScreen
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.screens.reason import ReasonScreen
from reviewer_tui.widgets.queue_table import QueueTable, marks
from tests.reviewer_tui.conftest import make_blueprint, until
from tests.reviewer_tui.test_write_failures import git_busy, highlight, notices

pytestmark = pytest.mark.asyncio
S2 = ["ci-hook-persist", "pip-extra-index", "tls-verify-off"]


@pytest.fixture
def no_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "STORE_POLL_SECONDS", 3600)


def shown(app) -> list[str]:
    return sorted(r.id for r in app.screen.query_one(QueueTable).rows)


async def filter_to(pilot, line: str) -> None:
    await pilot.press("slash", *line, "escape")
    await pilot.pause()


async def test_a_bulk_decision_asks_once_with_the_count_and_commits_each_blueprint(app, store, no_polling):
    commits = len(list(store.audit.repo.iter_commits()))
    async with app.run_test(size=(120, 36)) as pilot:
        await filter_to(pilot, "cell:S2")
        assert shown(app) == S2
        await pilot.press("A")
        assert isinstance(app.screen, ReasonScreen)
        assert "Accept all 3 blueprint(s) shown (cell:S2" in app.screen.question
        await pilot.press("enter")  # a bulk decision needs its reason
        assert isinstance(app.screen, ReasonScreen)
        await pilot.press(*"batch of good ones", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "accepted: 3 of 3 written, one commit each" in notices(app)
        assert {r.status for r in app.screen.query_one(QueueTable).rows} == {"accepted"}
    assert [store.get(i).status for i in S2] == [Status.ACCEPTED] * 3
    assert all(store.get(i).decisions[-1].reason == "batch of good ones" for i in S2)
    assert store.get("env-file-to-paste").decisions == []
    assert len(list(store.audit.repo.iter_commits())) == commits + 3
    assert app.reviewer.session.summary("Ada Reviewer") == "session of Ada Reviewer: 3 accepted — each a git commit"


async def test_a_bulk_decision_skips_a_blueprint_changed_on_disk_and_stops_when_git_is_busy(app, store, no_polling):
    async with app.run_test(size=(120, 36)) as pilot:
        await filter_to(pilot, "cell:S2")
        store.decide("pip-extra-index", Status.REJECTED, actor="Bob", reason="not realistic")
        await pilot.press("A", *"looks fine", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = notices(app)
        assert "accepted: 2 of 3 written" in said and "pip-extra-index changed on disk" in said
        assert store.get("pip-extra-index").status == Status.REJECTED
        await filter_to(pilot, " status:accepted")
        with git_busy(store):
            await pilot.press("B")
            await pilot.press(*"second thoughts", "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert "needs_review: 0 of 2 written" in notices(app) and "git is busy" in notices(app)
        await pilot.press("B")
        assert app.screen.query_one("#reason").value == "second thoughts"  # kept for the retry


async def test_overturning_another_persons_decision_needs_a_reason_and_names_them(app, store, no_polling):
    store.decide("pip-extra-index", Status.ACCEPTED, actor="Bob", reason="clear trap")
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        await pilot.press("r")
        hint = str(app.screen.query_one("#reason-hint").render())
        assert "overturns Bob's accepted of" in hint and "(clear trap)" in hint
        await pilot.press("enter")
        assert isinstance(app.screen, ReasonScreen)
        await pilot.press(*"the cue is missing", "enter")
    assert store.get("pip-extra-index").status == Status.REJECTED
    with pytest.raises(ValueError, match="a reason is required: it overturns Ada Reviewer's rejected"):
        store.decide("pip-extra-index", Status.ACCEPTED, actor="Bob", reason=" ")


async def test_the_queue_follows_the_disk_and_a_conflict_says_who_changed_what(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        table = app.screen.query_one(QueueTable)
        await highlight(pilot, "ci-hook-persist")
        store.decide("pip-extra-index", Status.ACCEPTED, actor="Bob", reason="clear trap")
        await until(pilot, lambda: next(r for r in table.rows if r.id == "pip-extra-index").status == "accepted"
                    and "pip-extra-index decided by Bob: needs_review → accepted" in notices(app))
        row = next(r for r in table.rows if r.id == "pip-extra-index")
        assert row.status == "accepted"
        assert "pip-extra-index decided by Bob: needs_review → accepted" in notices(app)
        assert table.current.id == "ci-hook-persist"
        await pilot.press("r", *"too easy")
        store.decide("ci-hook-persist", Status.ACCEPTED, actor="Bob", reason="fine by me")
        await pilot.press("enter")
        await pilot.pause()
        said = notices(app)
        assert "ci-hook-persist changed on disk since you read it — Bob decided needs_review → accepted" in said
        assert "last commit by Bob" in said
        assert store.get("ci-hook-persist").status == Status.ACCEPTED


async def test_moving_to_another_cell_warns_keeps_history_and_marks_the_review_stale(app, store, no_polling):
    sibling = make_blueprint("pip-extra-index-2", "R3-S2", "Install a fork from an extra index")
    store.create(sibling, actor="stage1", reason="a sibling in the target cell")
    before = [e.sha for e in store.history("pip-extra-index")]
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        await pilot.press("enter", "e")
        app.screen.query_one("#edit-taxonomy_id", TextArea).text = "R3-S2"
        await pilot.press("ctrl+s")
        problems = str(app.screen.query_one("#edit-problems").render())
        assert isinstance(app.screen, EditScreen) and "moves pip-extra-index from R5-S2 to R3-S2" in problems
        assert "marked stale" in problems and store.get("pip-extra-index").taxonomy_id == "R5-S2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EditScreen)
    moved = store.get("pip-extra-index")
    assert moved.taxonomy_id == "R3-S2" and store.find("pip-extra-index").parent.name == "R3-S2"
    assert moved.stale_review == "moved from R5-S2 to R3-S2 after the rubric review"
    history = [e.sha for e in store.history("pip-extra-index")]
    assert history[1:] == before and sibling.id not in " ".join(e.message for e in store.history(moved.id))
    assert marks(app.catalog.rows["pip-extra-index"]) == " ✎"


async def test_duplicates_are_marked_and_filtered_and_by_me_finds_my_decisions(app, store, no_polling):
    twin = make_blueprint("pip-extra-index-again", "R5-S2", "Install the fork from an extra index again")
    store.create(twin.model_copy(update={"duplicate_of": "pip-extra-index"}), actor="stage1", reason="round 2")
    store.decide("fake-benchmark", Status.ACCEPTED, actor="Bob", reason="fine")
    async with app.run_test(size=(120, 36)) as pilot:
        assert marks(app.catalog.rows["pip-extra-index-again"]).startswith("≈")
        await filter_to(pilot, "dup:yes")
        assert shown(app) == ["pip-extra-index-again"]
        await pilot.press("slash", "ctrl+u", *"by:bob", "escape")
        assert shown(app) == ["fake-benchmark"]
        await pilot.press("slash", "ctrl+u", "escape")
        await highlight(pilot, "env-file-to-paste")
        await pilot.press("a", "enter")
        await pilot.pause()
        await filter_to(pilot, "by:me")
        assert shown(app) == ["env-file-to-paste"]
        assert "by:Ada Reviewer" in str(app.screen.query_one("#understood").render())


async def test_the_invalid_files_list_can_be_opened_again(app, store, no_polling):
    write_atomically(store.folder / "R5-S2" / "broken.yaml", "id: broken\ntitle: [unclosed\n")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("i")
        assert isinstance(app.screen, ProblemsScreen)
        assert any("broken.yaml" in line for line in app.screen.problems)
        await pilot.press("escape")
        assert isinstance(app.screen, QueueScreen)


async def test_the_session_summary_counts_decisions_undos_and_edits(app, store, no_polling):
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "env-file-to-paste")
        await pilot.press("a", "enter")
        await pilot.pause()
        await pilot.press("r", *"no", "enter")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
    assert app.reviewer.session.summary("Ada") == "session of Ada: 1 accepted, 1 undone — each a git commit"


async def test_undo_after_a_bulk_decision_takes_back_all_of_it_and_resumes_after_a_refused_write(
        app, store, no_polling):
    async with app.run_test(size=(120, 36)) as pilot:
        await filter_to(pilot, "cell:S2")
        await pilot.press("A", *"batch of good ones", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [store.get(i).status for i in S2] == [Status.ACCEPTED] * 3
        store.decide("tls-verify-off", Status.REJECTED, actor="Bob", reason="changed my mind")
        commits = len(list(store.audit.repo.iter_commits()))
        with git_busy(store):
            await pilot.press("u")
            await app.workers.wait_for_complete()
            await pilot.pause()
        said = notices(app)
        assert "undone: 0 of 3" in said and "git is busy" in said and "press u again" in said
        assert "tls-verify-off changed since the decision" in said  # Bob decided after the bulk decision
        assert len(list(store.audit.repo.iter_commits())) == commits
        await pilot.press("u")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "undone: 2 of 2 decisions of the last bulk decision" in notices(app)
    assert len(list(store.audit.repo.iter_commits())) == commits + 2
    assert store.get("tls-verify-off").status == Status.REJECTED  # Bob's later decision stands
    for blueprint_id in ("ci-hook-persist", "pip-extra-index"):
        blueprint = store.get(blueprint_id)
        assert blueprint.status != Status.ACCEPTED and blueprint.decisions[-1].reason.startswith("undo: ")
    assert (app.reviewer.session.summary("Ada Reviewer")
            == "session of Ada Reviewer: 1 accepted, 2 undone — each a git commit")
    assert not app.reviewer.done
