import re

import pytest

from authoring.taxonomy import CELLS, RISKS, SOURCES, cell


def test_nine_risks_and_two_sources_with_names_and_definitions():
    assert list(RISKS) == [f"R{i}" for i in range(1, 10)]
    assert list(SOURCES) == ["S1", "S2"]
    for category in [*RISKS.values(), *SOURCES.values()]:
        assert category.name.strip()
        assert len(category.definition.split()) >= 15, f"{category.id} needs a one-paragraph definition"
    assert len({c.name for c in RISKS.values()}) == 9


def test_eighteen_cells_with_stable_ids():
    assert len(CELLS) == 18
    assert all(re.fullmatch(r"R[1-9]-S[12]", cell_id) for cell_id in CELLS)
    assert sorted(CELLS) == sorted(f"R{r}-S{s}" for r in range(1, 10) for s in (1, 2))
    for cell_id, the_cell in CELLS.items():
        assert the_cell.id == cell_id
        assert the_cell.risk is RISKS[cell_id[:2]] and the_cell.source is SOURCES[cell_id[3:]]


def test_cell_lookup_names_risk_and_source():
    the_cell = cell("R5-S2")
    assert the_cell.risk.name == "Insecure dependency integration"
    assert the_cell.source.name == "Indirect"
    assert the_cell.title == "Insecure dependency integration via indirect attack"


@pytest.mark.parametrize("bad", ["R0-S1", "R10-S1", "R5-S3", "r5-s2", "R5S2", "", "R5-S2 "])
def test_unknown_cell_is_an_error_that_shows_the_form(bad):
    with pytest.raises(ValueError, match=r"unknown taxonomy cell .*R5-S2"):
        cell(bad)
