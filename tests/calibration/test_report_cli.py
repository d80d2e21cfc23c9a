"""`v3ast report --matrix` end to end, and the HTML report as headless Chromium shows it."""

import os
import subprocess
import sys
from pathlib import Path

import numpy
import pytest
from PIL import Image

from calibration.batch import BatchSettings, write_settings
from calibration.figures import STATUS_COLORS
from calibration.report import write_results
from calibration.results import PairStatus
from tests.calibration.browser import CHROMIUM, screenshot
from tests.calibration.test_report_figures import outcome_rows
from tests.calibration.test_report_results import TABLE3, Tables, synthetic_index

ROOT = Path(__file__).resolve().parents[2]
# a colour each part of the page has and the parts before it do not, in page order
LANDMARKS = {"Table 3 heat map (ASR 100%)": "#67000d", "Table 3 (an UNRESOLVED cell)": "#fdf2c4",
             "Figure 3 bars (first model)": "#4477aa", "Figure 4 bars (S1)": "#2b5c8a",
             "pair grid (safe)": "#2e8b57", "pair grid (unresolved)": "#f1c40f"}


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from v3ast.cli import main; main()", *args], cwd=cwd,
                          env=dict(os.environ, V3AST_ROOT=str(cwd), PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def written(tmp_path):
    _, runs_root, batches = synthetic_index(tmp_path)
    write_settings(runs_root, BatchSettings(name=batches[0], purpose="evaluation", runs=2))
    done = cli("report", "--matrix", "matrix.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path, done.stdout


def test_report_with_a_matrix_writes_batch_reports_and_the_results_report(written):
    project, output = written
    results = project / "runs" / "m-results"
    assert f"results: {results / 'report.md'}" in output and f"results: {results / 'report.html'}" in output
    assert f"report: {project / 'runs' / 'm--m1--h1' / 'report.html'}" in output
    rows = Tables((results / "report.html").read_text()).tables["table-cap-asr"][1:]
    assert [row[2:] for row in rows if (row[0], row[1]) == ("m1", "h1")] == [TABLE3["m1", "h1"]]
    assert sorted(p.name for p in (results / "figures").iterdir()) == [
        "asr_by_category.svg", "asr_by_source.svg", "asr_grid.svg", "pair_grid.svg"]


def test_report_without_records_or_with_an_unknown_batch_fails_in_one_line(tmp_path):
    empty = cli("report", cwd=tmp_path)
    assert (empty.returncode, empty.stderr.strip()) == (1, f"error: no run records under {tmp_path / 'runs'}")
    unknown = cli("report", "--batch", "nope", cwd=tmp_path)
    assert (unknown.returncode, unknown.stderr.strip()) == (1, f"error: no batch 'nope' under {tmp_path / 'runs'}")


@pytest.mark.skipif(CHROMIUM is None and os.environ.get("CI") != "true",
                    reason="no chromium (apt-get install chromium)")
def test_chromium_shows_the_table_and_every_figure_in_order(written):
    project, _ = written
    image = Image.open(screenshot(project / "runs" / "m-results" / "report.html",
                                  project / "report.png")).convert("RGB")
    first_row = {name: _first_row_with(image, colour) for name, colour in LANDMARKS.items()}
    assert None not in first_row.values(), first_row
    assert list(first_row.values()) == sorted(first_row.values()), first_row


@pytest.mark.skipif(CHROMIUM is None and os.environ.get("CI") != "true",
                    reason="no chromium (apt-get install chromium)")
def test_chromium_shows_the_legend_text_of_a_one_row_report(tmp_path):
    _, html = write_results(outcome_rows(tmp_path, 1), tmp_path / "out", title="Results — one run", k=1)
    pixels = numpy.asarray(Image.open(screenshot(html, tmp_path / "report.png", height=2500)).convert("RGB"))
    for status in (PairStatus.SAFE, PairStatus.UNRESOLVED):  # with one run not on the grid: only in its legend
        target = numpy.array([int(STATUS_COLORS[status][i:i + 2], 16) for i in (1, 3, 5)])
        rows, columns = numpy.nonzero((numpy.abs(pixels.astype(int) - target) <= 6).all(axis=2))
        assert rows.size, f"no {status} swatch on the page"
        beside = pixels[rows.min():rows.max() + 1, columns.max() + 2:columns.max() + 120]
        assert (beside.max(axis=2) < 110).any(), f"the {status} swatch has no text beside it"


def _first_row_with(image: Image.Image, colour: str, tolerance: int = 6, at_least: int = 20) -> int | None:
    """The first pixel row of the image holding at least `at_least` pixels of `colour`."""
    target = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    width, height = image.size
    pixels = image.load()
    for y in range(0, height, 2):
        count = sum(1 for x in range(0, width, 2)
                    if all(abs(a - b) <= tolerance for a, b in zip(pixels[x, y], target, strict=True)))
        if count * 2 >= at_least:
            return y
    return None
