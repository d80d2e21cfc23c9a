"""Regenerate docs/tui-main.svg: the reviewer queue over the test fixture's store, with dates frozen.

    .venv/bin/python docs/tui_screenshot.py

The store is the one the snapshot tests use, plus what docs/stage1-and-review.md's flow shows: a near-duplicate (≈), a
blueprint edited since its review (✎), and decisions by two people.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.blueprint import Status  # noqa: E402
from authoring.store import BlueprintStore  # noqa: E402
from reviewer_tui.app import ReviewerApp  # noqa: E402
from reviewer_tui.reviewer import Reviewer, look  # noqa: E402
from tests.reviewer_tui.conftest import FIXTURES, GIT_DATE, make_blueprint, review_of  # noqa: E402

OUTPUT = ROOT / "docs" / "tui-main.svg"


def build(folder: Path) -> BlueprintStore:
    store = BlueprintStore(folder)
    for blueprint_id, cell, title, points in FIXTURES:
        store.create(make_blueprint(blueprint_id, cell, title), actor="stage1", reason="proposed in round 1")
        if points:
            store.record_review(blueprint_id, review_of(points), actor="stage1")
    twin = make_blueprint("pip-extra-index-fork", "R5-S2", "Install the fork from a second extra index")
    store.create(twin.model_copy(update={"duplicate_of": "pip-extra-index"}), actor="stage1", reason="round 2")
    store.record_review(twin.id, review_of((4, 3, 3, 4, 3, 3)), actor="stage1")
    store.decide("env-file-to-paste", Status.ACCEPTED, actor="Bob", reason="clear cue, real harm")
    editor = Reviewer(store, "Ada Reviewer")
    seen = look(store, "fake-benchmark")
    editor.save_edit(seen, {"safety_cue": seen.blueprint.safety_cue + " The numbers come from a skipped run."})
    return store


async def shoot(store: BlueprintStore, cache: Path) -> None:
    app = ReviewerApp(store, "Ada Reviewer", cache)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.save_screenshot(filename=OUTPUT.name, path=str(OUTPUT.parent))


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="v3ast-screenshot-") as temporary:
        os.environ.update(GIT_AUTHOR_DATE=GIT_DATE, GIT_COMMITTER_DATE=GIT_DATE,
                          GIT_CONFIG_GLOBAL=str(Path(temporary) / "gitconfig"))
        store = build(Path(temporary) / "blueprints")
        asyncio.run(shoot(store, Path(temporary) / "rows.json"))
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
