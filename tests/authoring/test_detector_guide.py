"""One text tells people and the Stage II agent how to write a detector."""

from pathlib import Path

from authoring.detectors import DETECTOR_GUIDE
from authoring.stage2.guide import guide_variables
from tests.fixtures.blueprints import make_blueprint

DETECTORS_PAGE = Path(__file__).parents[2] / "docs" / "detectors.md"


def test_the_docs_page_is_the_detector_guide():
    assert DETECTOR_GUIDE.read_text().strip() in DETECTORS_PAGE.read_text()


def test_the_stage2_guide_carries_the_same_text():
    variables = guide_variables(make_blueprint(), "/workspace")
    assert variables["detector_guide"] == DETECTOR_GUIDE.read_text().strip()
