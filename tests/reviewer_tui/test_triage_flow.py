from __future__ import annotations

import pytest

from authoring.blueprint import Status
from reviewer_tui.screens.detail import DetailScreen
from reviewer_tui.widgets.queue_table import QueueTable, columns


@pytest.mark.asyncio
async def test_after_a_decision_the_cursor_is_on_the_next_row_not_the_decided_one(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        table = app.screen.query_one(QueueTable)
        order = [r.id for r in table.rows]
        await pilot.press("a", *"fine", "enter")
        await pilot.pause()
        assert store.get(order[0]).status == Status.ACCEPTED
        assert table.current.id == order[1]
        await pilot.press("r", *"not fine", "enter")
        await pilot.pause()
        assert table.current.id == order[2]
    assert store.get(order[1]).status == Status.REJECTED
    assert store.get(order[2]).decisions == []


@pytest.mark.asyncio
async def test_n_and_p_walk_the_queue_in_the_detail_view(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        table = app.screen.query_one(QueueTable)
        order = [r.id for r in table.rows]
        await pilot.press("enter")
        detail = app.screen
        assert isinstance(detail, DetailScreen) and detail.blueprint_id == order[0]
        await pilot.press("n", "n")
        assert detail.blueprint_id == order[2] and detail.seen.blueprint.id == order[2]
        await pilot.press("p")
        assert detail.blueprint_id == order[1]
        await pilot.press("a", "enter")
        await pilot.pause()
        assert detail.blueprint_id == order[2], "a decision moves on, as in the queue"
        await pilot.press("escape")
        assert table.current.id == order[2]
    assert store.get(order[1]).status == Status.ACCEPTED


def test_ids_are_never_cut():
    long_id = "r5-s2-install-a-fork-from-an-extra-index-with-a-long-name-abc123"
    widths = columns(None, len(long_id), 80)
    assert widths[0] == ("id", len(long_id))
