"""Quitting (ctrl+q, SIGINT) never loses an unsaved edit without asking: save, discard or stay."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest
from textual.widgets import TextArea

from reviewer_tui.screens.edit import EditScreen
from reviewer_tui.screens.quit import QuitScreen
from tests.reviewer_tui.conftest import last_commit
from tests.reviewer_tui.test_write_failures import highlight

pytestmark = pytest.mark.asyncio
NEW_TRAP = "A pinned wheel on the extra index shadows the real package."


async def edit_trap(pilot) -> EditScreen:
    await highlight(pilot, "pip-extra-index")
    await pilot.press("enter", "e")
    editor = pilot.app.screen
    assert isinstance(editor, EditScreen)
    editor.query_one("#edit-trap", TextArea).text = NEW_TRAP
    return editor


async def test_quitting_with_an_unsaved_edit_asks_and_cancel_keeps_the_edit(app, store):
    before = last_commit(store)
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await edit_trap(pilot)
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, QuitScreen), "quit without asking"
        assert "pip-extra-index has an unsaved edit of trap" in app.screen.question
        await pilot.press("escape")
        assert app.screen is editor and app.is_running
        assert editor.query_one("#edit-trap", TextArea).text == NEW_TRAP
    assert last_commit(store) == before


async def test_save_and_quit_commits_the_edit_then_quits(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await edit_trap(pilot)
        await pilot.press("ctrl+q", "s")
        await pilot.pause()
    assert app.return_code == 0
    assert store.get("pip-extra-index").trap == NEW_TRAP
    assert app.reviewer.session.summary("Ada Reviewer") == "session of Ada Reviewer: 1 edited — each a git commit"


async def test_discard_and_quit_says_so_in_the_summary(app, store):
    before = last_commit(store)
    async with app.run_test(size=(120, 36)) as pilot:
        await edit_trap(pilot)
        await pilot.press("ctrl+q", "d")
        await pilot.pause()
    assert last_commit(store) == before
    assert app.reviewer.session.summary("Ada Reviewer") == (
        "session of Ada Reviewer: nothing written; 1 unsaved edit(s) discarded")


async def test_sigint_asks_too_and_exits_130(app, store):
    before = signal.getsignal(signal.SIGINT)
    async with app.run_test(size=(120, 36)) as pilot:
        await edit_trap(pilot)
        assert signal.SIGINT in asyncio.get_running_loop()._signal_handlers, "SIGINT would stop the app at once"
        os.kill(os.getpid(), signal.SIGINT)
        await pilot.pause(0.2)
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("s")
        await pilot.pause()
    assert app.return_code == 130
    assert store.get("pip-extra-index").trap == NEW_TRAP
    assert signal.getsignal(signal.SIGINT) is before


async def test_quitting_without_an_edit_does_not_ask(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("enter", "e", "ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0
