import pytest

from authoring.blueprint import Status
from authoring.status_names import parse_band, parse_status


@pytest.mark.parametrize("text, status", [("accepted", Status.ACCEPTED), ("acc", Status.ACCEPTED),
                                          ("review", Status.NEEDS_REVIEW), ("Needs-Review", Status.NEEDS_REVIEW),
                                          ("impl", Status.IMPLEMENTED)])
def test_a_status_is_its_name_or_a_part_naming_one_only(text, status):
    assert parse_status(text) == status


@pytest.mark.parametrize("text, named", [("a", "accepted, admitted"),
                                         ("ted", "accepted, rejected, implemented, calibrated, admitted")])
def test_an_ambiguous_part_lists_only_the_statuses_it_matches(text, named):
    with pytest.raises(ValueError) as refused:
        parse_status(text)
    assert str(refused.value) == f"status {text!r} matches several of: {named}"


def test_a_part_matching_nothing_lists_every_choice():
    with pytest.raises(ValueError, match="band 'acc' matches none of: kept, needs_review, dropped$"):
        parse_band("acc")
