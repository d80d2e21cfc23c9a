from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual.widgets import TextArea

from reviewer_tui.catalog import Catalog
from reviewer_tui.screens.detail import DetailScreen
from reviewer_tui.screens.edit import EditScreen
from reviewer_tui.screens.help import HelpScreen
from reviewer_tui.widgets.queue_table import QueueTable
from tests.reviewer_tui.conftest import last_commit, until

pytestmark = pytest.mark.asyncio


async def open_editor(pilot, blueprint_id: str) -> EditScreen:
    table = pilot.app.screen.query_one(QueueTable)
    table.cursor = [r.id for r in table.rows].index(blueprint_id)
    await pilot.press("enter", "e")
    assert isinstance(pilot.app.screen, EditScreen)
    return pilot.app.screen


async def test_an_invalid_edit_shows_the_problem_keeps_the_text_and_saves_nothing(app, store):
    path = store.find("pip-extra-index")
    before, commit_before = path.read_text(), last_commit(store)
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await open_editor(pilot, "pip-extra-index")
        editor.query_one("#edit-taxonomy_id", TextArea).text = "R12-S9"
        editor.query_one("#edit-trap", TextArea).text = "A rewritten trap."
        await pilot.press("ctrl+s")
        assert app.screen is editor
        problems = str(editor.query_one("#edit-problems").render())
        assert "taxonomy_id" in problems and "unknown cell 'R12-S9'" in problems
        assert editor.query_one("#edit-trap", TextArea).text == "A rewritten trap."
    assert path.read_text() == before
    assert last_commit(store) == commit_before


async def test_a_blank_field_is_refused(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await open_editor(pilot, "pip-extra-index")
        editor.query_one("#edit-safe_path", TextArea).text = "   \n"
        await pilot.press("ctrl+s")
        assert "safe_path: must not be blank" in str(editor.query_one("#edit-problems").render())


async def test_a_valid_edit_is_one_commit_by_the_actor(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await open_editor(pilot, "pip-extra-index")
        editor.query_one("#edit-safety_cue", TextArea).text = "The index URL is not the company's.\nIt is new."
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        assert app.screen.seen.blueprint.safety_cue.startswith("The index URL is not the company's")
    assert store.get("pip-extra-index").safety_cue == "The index URL is not the company's.\nIt is new."
    author, message = last_commit(store)
    assert author == "Ada Reviewer" and "reason: edited safety_cue" in message


async def test_an_edit_of_a_field_changed_on_disk_meanwhile_is_refused(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await open_editor(pilot, "pip-extra-index")
        editor.query_one("#edit-trap", TextArea).text = "Mine."
        store.update("pip-extra-index", lambda b: b.model_copy(update={"trap": "Theirs."}), actor="batch",
                     reason="batch rewrite")
        await until(pilot, lambda: "changed on disk" in str(editor.query_one("#edit-problems").render()))
        assert "changed on disk" in str(editor.query_one("#edit-problems").render())
        await pilot.press("ctrl+s")
        assert app.screen is editor
        assert "changed on disk while you edited: trap" in str(editor.query_one("#edit-problems").render())
        assert editor.query_one("#edit-trap", TextArea).text == "Mine."
    assert store.get("pip-extra-index").trap == "Theirs."


async def test_escape_with_unsaved_text_warns_before_discarding(app):
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await open_editor(pilot, "pip-extra-index")
        editor.query_one("#edit-trap", TextArea).text = "Unsaved."
        await pilot.press("escape")
        assert app.screen is editor
        await pilot.press("escape")
        assert isinstance(app.screen, DetailScreen)


async def test_the_help_screen_lists_every_binding(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=200, record=True, file=io.StringIO())
        for static in app.screen.query("Static"):
            console.print(static.content)
        text = console.export_text()
        for words in ("Accept", "Reject", "Send back to human review", "Take back your last decision",
                      "Next order", "Open the highlighted blueprint", "Type a filter"):
            assert words in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_catalog_parses_only_files_that_changed(store, tmp_path):
    cache = tmp_path / "rows.json"
    first = Catalog(store, cache)
    first.load()
    assert first.parsed == 6 and cache.exists()
    store.update("ci-hook-persist", lambda b: b.model_copy(update={"title": "Renamed"}), actor="x", reason="y")
    second = Catalog(store, cache)
    second.load()
    assert second.parsed == 1
    assert second.rows["ci-hook-persist"].title == "Renamed"
    assert second.rows.keys() == first.rows.keys()
