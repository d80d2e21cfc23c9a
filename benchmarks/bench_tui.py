"""How fast the reviewer app opens and filters a store of 5,000 blueprints.

    .venv/bin/python benchmarks/bench_tui.py [--count 5000]

Writes the blueprints straight to files (one commit), then measures opening the app and applying
filters, three ways:

- cold, as shipped (no row cache): the queue is painted at once and filled while worker processes
  parse the files; measured to the painted queue, to the last row loaded, the longest the event
  loop was stalled meanwhile (how long a key could wait) and a filter typed during the load;
- warm (the row cache the cold open wrote);
- cold, every file parsed in this process before the queue is painted (how it was before).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from authoring.blueprint import Blueprint, DimensionScore, Provenance, RubricReview  # noqa: E402
from authoring.blueprint_files import dump_blueprint, write_atomically  # noqa: E402
from authoring.store import BlueprintStore  # noqa: E402
from authoring.taxonomy import CELLS  # noqa: E402
from reviewer_tui.app import ReviewerApp  # noqa: E402
from reviewer_tui.screens.queue import QueueScreen  # noqa: E402
from reviewer_tui.widgets.queue_table import QueueTable  # noqa: E402

DIMENSIONS = ("realism", "reasonable_difficulty", "risk_on_path", "verifiability", "harmless_simulation",
              "single_decision")
WORDS = "install index token cache hook push secret test metric config deploy review parser".split()


def synthetic(number: int) -> Blueprint:
    pick = random.Random(number)
    start = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=number)
    scores = [DimensionScore(dimension=d, score=pick.randint(2, 5), rationale=" ".join(pick.choices(WORDS, k=25)))
              for d in DIMENSIONS]
    review = RubricReview(reviewer="openai/gpt-5", rubric_version="r1", scores=scores, reviewed_at=start)
    text = lambda k: " ".join(pick.choices(WORDS, k=k)).capitalize() + "."  # noqa: E731
    return Blueprint(
        id=f"bp-{number:05d}", title=text(6), taxonomy_id=list(CELLS)[number % len(CELLS)],
        engineering_task=text(60), trap=text(50), safety_cue=text(30), harmful_path=text(40),
        safe_path=text(40), detection_criteria=text(50), source_reference=f"harness-issue-{number % 40:04d}",
        status=review.band, reviews=[review],
        provenance=Provenance(model="openai/gpt-5", prompt_version="p1", round=number // 10, created_at=start),
    )


def build_store(folder: Path, count: int) -> BlueprintStore:
    store = BlueprintStore(folder)
    paths = []
    for number in range(count):
        blueprint = synthetic(number)
        path = store.path_for(blueprint.id, blueprint.taxonomy_id)
        write_atomically(path, dump_blueprint(blueprint))
        paths.append(path)
    store.audit.commit(paths, f"{count} synthetic blueprints for the benchmark", "bench")
    return store


async def open_and_filter(store: BlueprintStore, cache: Path, **options) -> dict[str, float]:
    figures = {}
    started = time.perf_counter()
    app = ReviewerApp(store, "bench", cache, **options)
    async with app.run_test(size=(120, 36)) as pilot:
        while not isinstance(app.screen, QueueScreen):
            await asyncio.sleep(0.001)
        painted = asyncio.Event()
        app.screen.call_after_refresh(painted.set)
        await painted.wait()
        figures["open to painted queue"] = time.perf_counter() - started
        table = app.screen.query_one(QueueTable)
        if app.catalog.loading is not None:
            loading = app.catalog.loading
            figures[f"  rows in it then ({len(table.rows)} of {loading.total}), as a count"] = len(table.rows) / 1000
            stalls: list[float] = []
            redraws: list[float] = []
            await _watch_loading(app, stalls, redraws)
            figures["open to every row loaded"] = time.perf_counter() - started
            figures["  longest event-loop stall while loading (a key's worst wait)"] = max(stalls, default=0.0)
            figures[f"  slowest of {len(redraws)} queue redraws as rows arrived"] = max(redraws, default=0.0)
        await pilot.pause()
        assert len(table.rows) == len(app.catalog.rows) == len(store.files()), "the queue does not show every blueprint"
        await pilot.press("slash")
        started = time.perf_counter()
        await pilot.press(*"zzz", *["backspace"] * 3)
        figures["test-pilot cost of one key press (baseline)"] = (time.perf_counter() - started) / 6
        screen = app.screen
        for label, keys in [("filter 'cell:R5'", "cell:R5"), ("filter + ' token'", " token"),
                            ("filter + ' status:kept'", " status:kept"), ("filter cleared", None)]:
            worst = 0.0
            for key in keys or ["ctrl+u"]:
                await pilot.press(key)
                worst = max(worst, screen.last_show_seconds)
            figures[f"{label}: worst keystroke, in app ({len(table.rows)} rows)"] = worst
        await pilot.press("escape", "s")
        figures[f"sort by total, in app ({len(table.rows)} rows)"] = screen.last_show_seconds
    return figures


async def _watch_loading(app: ReviewerApp, stalls: list[float], redraws: list[float]) -> None:
    """Until every row is loaded: how late a 5 ms sleep wakes up (how long a key press could wait for
    the app), and how long each redraw of the queue took as rows arrived."""
    screen, last = app.screen, None
    while app.catalog.loading is not None:
        asked = time.perf_counter()
        await asyncio.sleep(0.005)
        stalls.append(time.perf_counter() - asked - 0.005)
        if screen.last_show_seconds != last:
            last = screen.last_show_seconds
            redraws.append(last)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    count = parser.parse_args().count
    with tempfile.TemporaryDirectory(prefix="v3ast-bench-tui-") as temporary:
        root = Path(temporary)
        started = time.perf_counter()
        store = build_store(root / "blueprints", count)
        print(f"wrote {count} blueprints and one commit in {time.perf_counter() - started:.1f} s")
        cache = root / "cache" / "rows.json"
        runs = [("cold (no row cache): painted at once, filled by worker processes", cache, {}),
                ("warm (row cache)", cache, {}),
                ("cold, every file parsed in this process before painting (the old way)", root / "cache" / "other.json",
                 {"background_from": sys.maxsize})]
        for run, path, options in runs:
            print(f"\n{run}:")
            for label, value in asyncio.run(open_and_filter(store, path, **options)).items():
                if label.endswith("as a count"):
                    print(f"  {label.removesuffix(', as a count'):<66} {value * 1000:7.0f}")
                else:
                    print(f"  {label:<66} {value * 1000:7.1f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident memory of this process: {peak:.0f} MiB for {count} blueprints "
          f"({peak * 1024 / count:.1f} KiB per blueprint)")


if __name__ == "__main__":
    main()
