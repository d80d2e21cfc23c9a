"""Loading the catalog in the background: the queue is painted first and filled as files are parsed;
in the end the rows and problems are exactly those of a load done all at once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from textual.worker import WorkerCancelled

from authoring.blueprint import Status
from authoring.store import BlueprintStore
from reviewer_tui import app as app_module
from reviewer_tui import catalog as catalog_module
from reviewer_tui.app import ReviewerApp
from reviewer_tui.catalog import Catalog, parse_files
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.screens.reason import ReasonScreen
from reviewer_tui.widgets.queue_table import QueueTable
from tests.reviewer_tui.conftest import make_blueprint

pytestmark = pytest.mark.asyncio

BROKEN = "id: broken-one\ntitle: [unclosed\n"


@pytest.fixture
def bigger(store: BlueprintStore) -> BlueprintStore:
    """The fixture store, twelve more blueprints written straight to files, and one invalid file."""
    from authoring.blueprint_files import dump_blueprint, write_atomically

    for number in range(12):
        blueprint = make_blueprint(f"extra-{number:02d}", ("R1-S1", "R6-S2", "R9-S1")[number % 3], f"Extra {number}")
        write_atomically(store.path_for(blueprint.id, blueprint.taxonomy_id), dump_blueprint(blueprint))
    (store.folder / "R2-S2").mkdir(exist_ok=True)
    (store.folder / "R2-S2" / "broken-one.yaml").write_text(BROKEN, encoding="utf-8")
    return store


def all_at_once(store: BlueprintStore) -> Catalog:
    catalog = Catalog(store, None)
    catalog.load()
    return catalog


def counts_text(app: ReviewerApp) -> str:
    return str(app.screen.query_one("#counts").render())


async def loaded(app: ReviewerApp, pilot) -> None:
    """Wait for the load to finish and for the screens to have taken its last message (bounded: 20 s, for a machine
    busy with the rest of the suite)."""
    try:
        await app.workers.wait_for_complete()
    except WorkerCancelled:  # a fill the app replaced by a newer one (one catalog worker at a time): polled below
        pass
    until = time.monotonic() + 20
    while time.monotonic() < until:
        await pilot.pause(0.02)
        if app.catalog.loading is None and "loading" not in counts_text(app):
            return


@pytest.mark.parametrize("workers", [2, 1], ids=["worker processes", "a thread"])
async def test_a_cold_background_load_gives_the_rows_and_problems_of_a_load_at_once(
    bigger, tmp_path, monkeypatch, workers
):
    monkeypatch.setattr(catalog_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(catalog_module, "PART_FILES", (3, 3))
    pools = []
    submit = catalog_module._submit

    def watched(parts, count):
        pool, submitted, left = submit(parts, count)
        pools.append((pool is not None, len(submitted), len(left)))
        return pool, submitted, left

    monkeypatch.setattr(catalog_module, "_submit", watched)
    expected = all_at_once(bigger)
    assert len(expected.rows) == 18 and len(expected.problems) == 1
    cache = tmp_path / "cold" / "rows.json"
    app = ReviewerApp(bigger, "Ada Reviewer", cache, background_from=0, workers=workers)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(app, pilot)
        assert app.catalog.loading is None
        assert app.catalog.rows == expected.rows
        assert list(app.catalog.rows) == list(expected.rows)
        assert app.catalog.problems == expected.problems
        assert "broken-one.yaml" in app.catalog.problems[0] and "invalid YAML" in app.catalog.problems[0]
        assert app.catalog.parsed == 19
        assert "18/18 shown" in counts_text(app) and "1 invalid file(s)" in counts_text(app)
        assert "loading" not in counts_text(app)
        assert any("1 invalid file(s), 1 problem(s)" in n.message for n in app._notifications)
        assert len(app.screen.query_one(QueueTable).rows) == 18
    assert pools == ([(True, 7, 0)] if workers > 1 else []), "19 files in parts of 3, all to the pool"
    assert cache.exists()
    warm = Catalog(bigger, cache)
    warm.load()
    assert warm.parsed == 1, "only the invalid file is parsed again"
    assert warm.rows == expected.rows and warm.problems == expected.problems


async def test_the_queue_is_usable_while_rows_arrive(bigger, tmp_path, monkeypatch):
    """Parts come only when the test lets them: the counts say how far loading is, the filter and
    decisions work on the rows already loaded, and the last part completes the queue."""
    gates: list[asyncio.Event] = []

    async def by_hand(paths, workers=None):
        first_pass = not gates
        for part in [paths[:9], paths[9:]]:
            if first_pass:
                gate = asyncio.Event()
                gates.append(gate)
                await gate.wait()
            yield parse_files(part)

    monkeypatch.setattr(app_module, "parse_in_parts", by_hand)
    monkeypatch.setattr(app_module, "REFRESH_SECONDS", 0.0)
    app = ReviewerApp(bigger, "Ada Reviewer", tmp_path / "rows.json", background_from=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, QueueScreen)
        assert "loading 0 of 19" in counts_text(app) and "0/0 shown" in counts_text(app)
        await pilot.press("a")
        assert isinstance(app.screen, QueueScreen), "no decision without a row"
        gates[0].set()
        await pilot.pause()
        table = app.screen.query_one(QueueTable)
        first = {row.id for row in table.rows}
        assert first == set(app.catalog.rows) and len(first) in (8, 9), "the invalid file may be among the first"
        assert "loading 9 of 19" in counts_text(app)
        await pilot.press("slash", *"cell:R5")
        assert [row.id for row in table.rows] == (["pip-extra-index"] if "pip-extra-index" in first else [])
        await pilot.press(*["backspace"] * 7, "escape")
        target = next(row.id for row in table.rows if row.status == Status.NEEDS_REVIEW)
        table.cursor = [row.id for row in table.rows].index(target)
        await pilot.press("a")
        assert isinstance(app.screen, ReasonScreen)
        await pilot.press(*"fine", "enter")
        await pilot.pause()
        assert bigger.get(target).status == Status.ACCEPTED
        await pilot.press("ctrl+r")
        assert any("still loading" in n.message for n in app._notifications)
        gates[1].set()
        await loaded(app, pilot)
        assert "loading" not in counts_text(app) and "18/18 shown" in counts_text(app)
        assert app.catalog.rows[target].status == Status.ACCEPTED
        assert app.catalog.rows == all_at_once(bigger).rows


async def test_a_row_written_while_loading_is_not_replaced_by_an_older_parse(store):
    catalog = Catalog(store, None)
    loading = catalog.start()
    older = parse_files(loading.stale)
    updated = store.decide("pip-extra-index", Status.ACCEPTED, actor="Ada", reason="ok")
    catalog.put(updated)
    catalog.take(older)
    assert catalog.rows["pip-extra-index"].status == Status.ACCEPTED
    catalog.finish()
    assert catalog.rows["pip-extra-index"].status == Status.ACCEPTED
    assert catalog.rows == all_at_once(store).rows


async def test_a_file_gone_before_it_is_parsed_is_skipped(store, tmp_path):
    catalog = Catalog(store, None)
    loading = catalog.start()
    gone = next(name for name in loading.stale if Path(name).stem == "tls-verify-off")
    Path(gone).unlink()
    catalog.take(parse_files(loading.stale))
    catalog.finish()
    assert "tls-verify-off" not in catalog.rows and catalog.problems == []
    assert len(catalog.rows) == 5


async def test_a_large_reload_fills_in_the_background_too(bigger, tmp_path, monkeypatch):
    monkeypatch.setattr(catalog_module, "PARALLEL_FROM", 2)
    app = ReviewerApp(bigger, "Ada Reviewer", tmp_path / "rows.json", background_from=5, workers=2)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(app, pilot)
        for path in [p for p in bigger.files() if p.stem != "broken-one"][:6]:
            path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        await pilot.press("ctrl+r")
        await loaded(app, pilot)
        assert app.catalog.parsed == 7, "six changed files and the invalid one"
        assert app.catalog.rows.keys() == all_at_once(bigger).rows.keys()
        assert any("reloaded: 18 blueprints, 7 file(s) parsed" in n.message for n in app._notifications)


async def test_without_worker_processes_a_thread_parses_instead(bigger, tmp_path, monkeypatch):
    def unavailable():
        raise OSError("no processes here")

    monkeypatch.setattr(catalog_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(catalog_module, "_worker_context", unavailable)
    app = ReviewerApp(bigger, "Ada Reviewer", tmp_path / "rows.json", background_from=0, workers=2)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(app, pilot)
        expected = all_at_once(bigger)
        assert app.catalog.rows == expected.rows and app.catalog.problems == expected.problems


async def test_an_invalid_file_is_not_seen_as_changed_after_a_load(bigger):
    catalog = Catalog(bigger, None)
    loading = catalog.start()
    catalog.take(parse_files(loading.stale))
    catalog.finish()
    assert catalog.problems and catalog.changes_on_disk() == ([], [])
    broken = bigger.folder / "R2-S2" / "broken-one.yaml"
    broken.write_text(BROKEN + "more: [\n", encoding="utf-8")
    assert catalog.changes_on_disk() == ([str(broken)], [])
