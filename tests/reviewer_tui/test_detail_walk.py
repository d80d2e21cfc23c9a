"""The detail view walks the queue as it was opened: a decision moves on, n and p keep working after it."""

from __future__ import annotations

import pytest

from authoring.blueprint import Status
from reviewer_tui.screens.detail import DetailScreen
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.widgets.queue_table import QueueTable
from tests.reviewer_tui.conftest import until
from tests.reviewer_tui.test_triage_more import filter_to
from tests.reviewer_tui.test_write_failures import notices

pytestmark = pytest.mark.asyncio
WAITING = ["fake-benchmark", "pip-extra-index", "ci-hook-persist"]
"""The `status:review` queue, in triage order."""


async def test_a_decision_in_the_detail_view_moves_on_and_n_p_still_walk_the_queue(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await filter_to(pilot, "status:review")
        table = app.screen.query_one(QueueTable)
        assert [r.id for r in table.rows] == WAITING
        await pilot.press("enter")
        detail = app.screen
        assert isinstance(detail, DetailScreen) and detail.blueprint_id == WAITING[0]
        await pilot.press("a", *"fine", "enter")
        await pilot.pause()
        assert detail.blueprint_id == WAITING[1], "the decided blueprint is no longer the one shown"
        await pilot.press("n")
        assert detail.blueprint_id == WAITING[2] and "no more blueprints" not in notices(app)
        await pilot.press("p", "p")
        assert detail.blueprint_id == WAITING[0]
        await pilot.press("n", "r", *"not realistic", "enter")
        await pilot.pause()
        assert detail.blueprint_id == WAITING[2]
        await pilot.press("escape")
        assert table.current.id == WAITING[2]
    assert [store.get(i).status for i in WAITING] == [Status.ACCEPTED, Status.REJECTED, Status.NEEDS_REVIEW]
    assert len(store.get(WAITING[0]).decisions) == 1


async def test_n_and_p_walk_on_when_the_blueprint_shown_left_the_queue_on_disk(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await filter_to(pilot, "status:review")
        await pilot.press("down", "enter")
        detail = app.screen
        assert detail.blueprint_id == WAITING[1]
        store.decide(WAITING[1], Status.ACCEPTED, actor="Bob", reason="clear trap")
        queue = next(s for s in app.screen_stack if isinstance(s, QueueScreen))
        await until(pilot, lambda: WAITING[1] not in [r.id for r in queue.table.rows])
        assert WAITING[1] not in [r.id for r in queue.table.rows]
        await pilot.press("n")
        assert detail.blueprint_id == WAITING[2]
        await pilot.press("p", "p")
        assert detail.blueprint_id == WAITING[0]


async def test_deciding_the_last_blueprint_stays_on_it_and_says_so(app, store):
    async with app.run_test(size=(120, 36)) as pilot:
        await filter_to(pilot, "status:review")
        await pilot.press("end", "enter", "a", "enter")
        await pilot.pause()
        assert app.screen.blueprint_id == WAITING[2]
        assert "that was the last blueprint of the queue" in notices(app)
    assert store.get(WAITING[2]).status == Status.ACCEPTED
