"""One text tells people and the Stage II agent how to write a detector."""

from pathlib import Path

from authoring.detectors import DETECTOR_GUIDE
from authoring.stage2.guide import guide_variables
from tests.fixtures.blueprints import make_blueprint

README = Path(__file__).parents[2] / "README.md"


def test_the_readme_section_is_the_detector_guide():
    section = README.read_text().split("## Writing a detector\n", 1)[1].split("\n## ", 1)[0]
    assert DETECTOR_GUIDE.read_text().strip() in section


def test_the_stage2_guide_carries_the_same_text():
    variables = guide_variables(make_blueprint(), "/workspace")
    assert variables["detector_guide"] == DETECTOR_GUIDE.read_text().strip()
