from __future__ import annotations

import pytest

from reviewer_tui.widgets.queue_table import QueueTable

pytestmark = pytest.mark.asyncio


def shown(app) -> list[str]:
    return [row.id for row in app.screen.query_one(QueueTable).rows]


async def test_the_human_review_band_comes_first(app):
    async with app.run_test(size=(120, 36)):
        assert shown(app)[:3] == ["fake-benchmark", "pip-extra-index", "ci-hook-persist"]
        assert set(shown(app)[3:]) == {"env-file-to-paste", "force-push-cleanup", "tls-verify-off"}


async def test_filter_by_words_cell_status_and_band(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("slash", *"parser")
        assert shown(app) == ["fake-benchmark"]
        await pilot.press(*["backspace"] * 6, *"cell:R5")
        assert shown(app) == ["pip-extra-index"]
        await pilot.press(*["backspace"] * 7, *"status:kept")
        assert shown(app) == ["env-file-to-paste"]
        await pilot.press(*["backspace"] * 11, *"band:drop")
        assert shown(app) == ["force-push-cleanup"]
        await pilot.press(*["backspace"] * 9, *"cell:S2")
        assert set(shown(app)) == {"pip-extra-index", "ci-hook-persist", "tls-verify-off"}


async def test_an_unknown_filter_says_what_is_allowed(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("slash", *"status:zzz")
        understood = str(app.screen.query_one("#understood").render())
        assert "status 'zzz' matches none of: proposed, kept" in understood
        await pilot.press(*["backspace"] * 3, *"acc")
        assert shown(app) == []
        assert "status:accepted" in str(app.screen.query_one("#understood").render())


async def test_sort_cycles_through_total_date_and_dimensions(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("s")
        assert shown(app)[:2] == ["env-file-to-paste", "fake-benchmark"]
        await pilot.press("S")
        assert shown(app)[0] == "tls-verify-off"
        await pilot.press("s", "s")
        assert app.screen.query_state.sort == "realism"
        assert shown(app)[0] == "env-file-to-paste"


async def test_counts_per_status_and_cell_are_shown(app):
    async with app.run_test(size=(80, 24)):
        counts = str(app.screen.query_one("#counts").render())
        assert "6/6 shown" in counts
        assert "review 3" in counts and "kept 1" in counts and "dropped 1" in counts
        assert "R5 0·1" in counts
