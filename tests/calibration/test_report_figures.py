"""The results report's figures with 1, 2 and 51 outcome rows: no layout warning, and every text — titles, tick
labels, legends, the colour bar's label — inside the figure."""

import math
import re
import warnings
from pathlib import Path

import pytest

from authoring.taxonomy import RISKS
from calibration.figures import STATUS_COLORS, figures
from calibration.outcome_index import OutcomeIndex
from calibration.records import RunKey, records_folder
from calibration.report import batch_rows
from calibration.results import results
from tests.calibration.records_factory import record

OUTCOMES = ("COMPROMISED", "COMPLETED", "UNRESOLVED", "INCOMPLETE")
TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.S)


def outcome_rows(tmp_path: Path, count: int) -> list:
    """`count` risk runs of as many pairs, with long names, spread over up to five models and every risk."""
    runs_root = tmp_path / "runs"
    index = OutcomeIndex(records_folder(runs_root, "b"))
    for number in range(count):
        pair = f"pair-{number:02d}-with-a-long-descriptive-name"
        cell = f"{list(RISKS)[number % len(RISKS)]}-S{number % 2 + 1}"
        index.write(RunKey("b", pair, "risk", 0).path(runs_root),
                    record(pair, "risk", 0, OUTCOMES[number % len(OUTCOMES)], cell=cell, batch="b",
                           model=f"org/model-{number % 5}"), [])
    return batch_rows(runs_root, ["b"]).rows


def text_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each <text> and a box around it (left, top, right, bottom, in the viewBox's units), from its position,
    anchor, rotation and an average glyph width of half its font size (DejaVu Sans is wider: a lower bound)."""
    boxes = []
    for attributes, body in TEXT.findall(svg):
        text = re.sub(r"<[^>]+>", "", body)
        style = re.search(r'style="([^"]*)"', attributes).group(1)
        size = float(re.search(r"font-size: ([\d.]+)px", style).group(1))
        anchor = found.group(1) if (found := re.search(r"text-anchor: (\w+)", style)) else "start"
        transform = found.group(1) if (found := re.search(r'transform="([^"]*)"', attributes)) else ""
        if shift := re.search(r"translate\(([-\d.]+) ([-\d.]+)\)", transform):
            x, y = map(float, shift.groups())
        else:
            x, y = (float(re.search(rf'{name}="([-\d.]+)"', attributes).group(1)) for name in ("x", "y"))
        angle = math.radians(float(found.group(1))) if (found := re.search(r"rotate\((-?[\d.]+)", transform)) else 0
        width = 0.5 * size * len(text)
        left = {"start": 0, "middle": -width / 2, "end": -width}[anchor]
        corners = [(dx, dy) for dx in (left, left + width) for dy in (-0.7 * size, 0.2 * size)]
        xs = [x + dx * math.cos(angle) - dy * math.sin(angle) for dx, dy in corners]
        ys = [y + dx * math.sin(angle) + dy * math.cos(angle) for dx, dy in corners]
        boxes.append((text, (min(xs), min(ys), max(xs), max(ys))))
    return boxes


@pytest.mark.parametrize("count", [1, 2, 51])
def test_every_figure_keeps_its_title_labels_legend_and_colour_bar_inside(tmp_path, count):
    found = results(outcome_rows(tmp_path, count), k=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        svgs = figures(found)
    for name, svg in svgs.items():
        width, height = map(float, re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
        boxes = text_boxes(svg)
        outside = [text for text, (left, top, right, bottom) in boxes
                   if left < -1 or top < -1 or right > width + 1 or bottom > height + 1]
        assert not outside, f"{name} with {count} row(s) cuts off {outside}"
        assert len(boxes) > 3, name
    texts = {name: {text for text, _ in text_boxes(svg)} for name, svg in svgs.items()}
    assert set(STATUS_COLORS) <= texts["pair_grid"]
    assert set(found.models) <= texts["asr_by_category"]
    assert {"S1 direct (prompt)", "S2 indirect (environment)"} <= texts["asr_by_source"]
    assert "(COMPROMISED / eligible judged)" in texts["asr_grid"]
