"""Regenerate docs/run-viewer-*.png: the run viewer over REAL records of scripted calibration batches (one shipped
pair through mini-swe-agent and each native harness, in Docker; scripted policies, not models), opened in
headless Chromium with JavaScript on and no network.

    .venv/bin/python docs/viewer_screenshot.py

Needs the Docker engine and the harness layers (`v3ast doctor --fix`); takes about a minute.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from authoring.sandbox.base_image import ensure_base_image  # noqa: E402
from authoring.sandbox.daemon import connect  # noqa: E402
from calibration.viewer import write_viewer  # noqa: E402
from calibration.viewer_index import find_runs, page_path, pair_path  # noqa: E402
from tests.calibration.browser import screenshot  # noqa: E402
from tests.calibration.viewer_runs import HOST_TOKEN, HOST_TOKEN_VARIABLE, MISS_BATCH, PAIR_ID, make_runs  # noqa: E402

SHOTS = {"index": ("index.html", 760), "run": ("run page of claude-code's risk run", 2300),
         "pair": ("pair page of a missed calibration", 1500)}


def main() -> None:
    os.environ[HOST_TOKEN_VARIABLE] = HOST_TOKEN
    client = connect()
    with tempfile.TemporaryDirectory(prefix="v3ast-viewer-shot-") as scratch:
        runs = make_runs(client, ensure_base_image(client).tag, Path(scratch))
        found = find_runs([], runs)
        folder = write_viewer(found, runs / "viewer", title="Run records — scripted calibration batches").folder
        claude = next(s.row for s in found.sources if s.row.batch == "calibration-claude-code" and s.row.side == "risk")
        pages = {"index": folder / "index.html", "run": folder / page_path(claude),
                 "pair": folder / pair_path(MISS_BATCH, PAIR_ID)}
        for name, (_, height) in SHOTS.items():
            shot = screenshot(pages[name], Path(scratch) / f"{name}.png", width=1280, height=height, javascript=True)
            output = ROOT / "docs" / f"run-viewer-{name}.png"
            Image.open(shot).convert("RGB").quantize(colors=128).save(output, optimize=True)
            print(f"wrote {output}")


if __name__ == "__main__":
    main()
