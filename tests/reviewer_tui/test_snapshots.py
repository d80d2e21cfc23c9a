"""SVG snapshots of the main screens over the fixed fixture store (dates and git times frozen)."""

from __future__ import annotations

from textual.widgets import TextArea

from reviewer_tui.widgets.queue_table import QueueTable


async def open_detail(pilot, blueprint_id: str = "pip-extra-index") -> None:
    table = pilot.app.screen.query_one(QueueTable)
    table.cursor = [r.id for r in table.rows].index(blueprint_id)
    await pilot.press("enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_queue(snap_compare, app):
    assert snap_compare(app, terminal_size=(120, 36))


def test_queue_at_80x24(snap_compare, app):
    assert snap_compare(app, terminal_size=(80, 24))


def test_queue_filtered_and_sorted(snap_compare, app):
    assert snap_compare(app, terminal_size=(120, 36), press=["s", "slash", *"cell:S2"])


def test_detail(snap_compare, app):
    assert snap_compare(app, terminal_size=(120, 36), run_before=open_detail)


def test_detail_at_80x24(snap_compare, app):
    assert snap_compare(app, terminal_size=(80, 24), run_before=open_detail)


def test_reason_prompt_for_an_overturn(snap_compare, app):
    async def overturn(pilot) -> None:
        await open_detail(pilot, "env-file-to-paste")
        await pilot.press("r", "enter")

    assert snap_compare(app, terminal_size=(100, 30), run_before=overturn)


def test_edit_refusing_an_invalid_value(snap_compare, app):
    async def invalid_edit(pilot) -> None:
        await open_detail(pilot)
        await pilot.press("e")
        pilot.app.screen.query_one("#edit-taxonomy_id", TextArea).text = "R12-S9"
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=invalid_edit)


def test_help(snap_compare, app):
    assert snap_compare(app, terminal_size=(100, 36), press=["question_mark"])
