"""Every write path of the app survives a store that cannot be written: a notice, nothing changed, work kept."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from authoring.blueprint import Status
from reviewer_tui.screens.edit import EditScreen
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.screens.reason import ReasonScreen
from reviewer_tui.widgets.queue_table import QueueTable
from tests.authoring.test_store_interruptions import read_only
from tests.reviewer_tui.conftest import last_commit

pytestmark = pytest.mark.asyncio


@contextmanager
def git_busy(store) -> Iterator[None]:
    lock = Path(store.audit.repo.git_dir) / "index.lock"
    lock.write_text("")
    try:
        yield
    finally:
        lock.unlink()


def store_read_only(store):
    return read_only(store.folder / "R5-S2")


BLOCKERS = {"git lock held": (git_busy, "git is busy: .git/index.lock exists"),
            "read-only store": (store_read_only, "permission denied")}


def notices(app) -> str:
    return " ".join(str(n.message) for n in app._notifications)


async def highlight(pilot, blueprint_id: str) -> None:
    table = pilot.app.screen.query_one(QueueTable)
    table.cursor = [r.id for r in table.rows].index(blueprint_id)
    await pilot.pause()


@pytest.mark.parametrize("blocker", BLOCKERS)
async def test_a_decision_that_cannot_be_written_keeps_the_app_and_the_reason(app, store, blocker):
    block, why = BLOCKERS[blocker]
    before = last_commit(store)
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        with block(store):
            await pilot.press("a", *"fits the cell", "enter")
            await pilot.pause()
            assert isinstance(app.screen, QueueScreen)
            assert why in notices(app) and "was not written" in notices(app)
            assert "Your reason is kept" in notices(app)
        assert store.get("pip-extra-index").status == Status.NEEDS_REVIEW and last_commit(store) == before
        await pilot.press("a")
        assert isinstance(app.screen, ReasonScreen), notices(app)
        assert app.screen.query_one("#reason", Input).value == "fits the cell"
        await pilot.press("enter")
        await pilot.pause()
    assert store.get("pip-extra-index").decisions[-1].reason == "fits the cell"
    assert store.audit.repo.git.status("--porcelain") == ""


@pytest.mark.parametrize("blocker", BLOCKERS)
async def test_an_undo_that_cannot_be_written_can_be_retried(app, store, blocker):
    block, why = BLOCKERS[blocker]
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        await pilot.press("a", *"ok", "enter")
        await pilot.pause()
        with block(store):
            await pilot.press("u")
            await pilot.pause()
            assert why in notices(app) and "nothing undone" in notices(app)
        assert store.get("pip-extra-index").status == Status.ACCEPTED
        await pilot.press("u")
        await pilot.pause()
    assert store.get("pip-extra-index").status == Status.NEEDS_REVIEW


@pytest.mark.parametrize("blocker", BLOCKERS)
async def test_an_edit_that_cannot_be_written_keeps_the_text(app, store, blocker):
    block, why = BLOCKERS[blocker]
    async with app.run_test(size=(120, 36)) as pilot:
        await highlight(pilot, "pip-extra-index")
        await pilot.press("enter", "e")
        editor = app.screen
        assert isinstance(editor, EditScreen)
        editor.query_one("#edit-trap", TextArea).text = "A rewritten trap."
        with block(store):
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is editor
            problems = str(editor.query_one("#edit-problems").render())
            assert why in problems and "Your text is kept" in problems
            assert editor.query_one("#edit-trap", TextArea).text == "A rewritten trap."
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert store.get("pip-extra-index").trap == "A rewritten trap."
