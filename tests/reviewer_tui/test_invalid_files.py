"""The header counts invalid files as files, and their problems apart."""

from __future__ import annotations

import pytest

from authoring.blueprint_files import write_atomically
from reviewer_tui.screens.problems import ProblemsScreen
from tests.reviewer_tui.conftest import until
from tests.reviewer_tui.test_loading import counts_text
from tests.reviewer_tui.test_write_failures import notices

pytestmark = pytest.mark.asyncio


async def test_the_header_counts_invalid_files_not_problems(app, store):
    write_atomically(store.folder / "R5-S2" / "broken.yaml", "id: broken\ntitle: [unclosed\n")
    write_atomically(store.folder / "R2-S1" / "half-done.yaml", "id: half-done\ntitle: Half done\n")
    async with app.run_test(size=(120, 36)) as pilot:
        assert len(app.catalog.problems) == 9
        assert "⚠ 2 invalid file(s), 9 problem(s) (i)" in counts_text(app)
        assert "2 invalid file(s), 9 problem(s) (i lists them again)" in notices(app)
        await pilot.press("i")
        assert isinstance(app.screen, ProblemsScreen)
        assert "2 invalid file(s), 9 problem(s)" in str(app.screen.query_one("Static").render())
        await pilot.press("escape")
        (store.folder / "R2-S1" / "half-done.yaml").unlink()
        write_atomically(store.folder / "R5-S2" / "broken.yaml", "id: broken\ntitle: [still unclosed\n")
        await until(pilot, lambda: "⚠ 1 invalid file(s), 1 problem(s) (i)" in counts_text(app))
        assert "⚠ 1 invalid file(s), 1 problem(s) (i)" in counts_text(app)
