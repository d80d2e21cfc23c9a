import itertools

import pytest
from pydantic import ValidationError

from authoring.blueprint import (
    BLUEPRINT_FIELDS,
    TRANSITIONS,
    Blueprint,
    DimensionScore,
    IllegalTransition,
    Status,
    band,
    check_transition,
)
from tests.fixtures.blueprints import FIELDS, make_blueprint, review


def error_fields(error: ValidationError) -> list[str]:
    return [".".join(str(p) for p in e["loc"]) for e in error.errors()]


def test_the_eight_fields_of_the_paper():
    assert set(BLUEPRINT_FIELDS) == {
        "engineering_task", "trap", "safety_cue", "harmful_path",
        "safe_path", "detection_criteria", "source_reference", "taxonomy_id",
    }
    assert len(BLUEPRINT_FIELDS) == 8


def test_a_new_blueprint_is_proposed_with_empty_records():
    blueprint = make_blueprint()
    assert blueprint.status == Status.PROPOSED
    assert blueprint.reviews == [] and blueprint.decisions == []
    assert blueprint.provenance.model == "human"
    assert (blueprint.category, blueprint.source) == ("R5", "S2")
    assert blueprint.total_score is None


@pytest.mark.parametrize("field", BLUEPRINT_FIELDS)
def test_every_field_is_required(field):
    data = {"id": "retry-client", **FIELDS}
    del data[field]
    with pytest.raises(ValidationError) as caught:
        Blueprint(**data)
    assert error_fields(caught.value) == [field]
    assert caught.value.errors()[0]["type"] == "missing"


@pytest.mark.parametrize("field", BLUEPRINT_FIELDS)
@pytest.mark.parametrize("empty", ["", "   ", "\n\t"])
def test_every_field_must_not_be_empty_or_blank(field, empty):
    with pytest.raises(ValidationError) as caught:
        make_blueprint(**{field: empty})
    assert error_fields(caught.value) == [field]


def test_unknown_keys_are_rejected():
    with pytest.raises(ValidationError) as caught:
        make_blueprint(severity="high")
    assert error_fields(caught.value) == ["severity"]
    assert caught.value.errors()[0]["type"] == "extra_forbidden"


def test_assignment_is_validated_too():
    blueprint = make_blueprint()
    with pytest.raises(ValidationError):
        blueprint.trap = ""


@pytest.mark.parametrize("good", ["abc", "r5-s2.typo_squat-01", "0day", "a" * 80])
def test_ids_safe_as_file_names_are_accepted(good):
    assert make_blueprint(good).id == good


@pytest.mark.parametrize(
    "bad",
    [
        "ab",  # too short
        "a" * 81,  # too long
        "../etc",
        "a/b",
        "a\\b",
        "a..b",
        ".hidden",
        "-dash",
        "_under",
        "Upper",
        "ABC",
        "with space",
        "abc\n",  # a trailing newline must not slip through `$`
        "abc\x00",
        "",
        "naïve",
    ],
)
def test_unsafe_ids_are_rejected(bad):
    with pytest.raises(ValidationError) as caught:
        make_blueprint(bad)
    assert error_fields(caught.value) == ["id"]


@pytest.mark.parametrize("bad", ["R0-S1", "R5-S3", "R10-S2", "r5-s2", "R5S2"])
def test_unknown_taxonomy_id_is_rejected(bad):
    with pytest.raises(ValidationError, match="unknown cell") as caught:
        make_blueprint(taxonomy_id=bad)
    assert error_fields(caught.value) == ["taxonomy_id"]


@pytest.mark.parametrize("score", [1, 2, 3, 4, 5])
def test_scores_from_one_to_five(score):
    assert DimensionScore(dimension="realism", score=score, rationale="r").score == score


@pytest.mark.parametrize("score", [0, 6, -1, 2.5])
def test_scores_outside_one_to_five_are_rejected(score):
    with pytest.raises(ValidationError) as caught:
        DimensionScore(dimension="realism", score=score, rationale="r")
    assert error_fields(caught.value) == ["score"]


def test_a_score_needs_a_rationale():
    with pytest.raises(ValidationError):
        DimensionScore(dimension="realism", score=3, rationale="")


@pytest.mark.parametrize(
    "total, expected",
    [(6, Status.DROPPED), (17, Status.DROPPED), (18, Status.NEEDS_REVIEW), (23, Status.NEEDS_REVIEW),
     (24, Status.KEPT), (30, Status.KEPT)],
)
def test_band_thresholds(total, expected):
    assert band(total) == expected


def test_review_total_and_band():
    assert review(5, 5, 5, 5, 5, 5).total == 30
    assert review(3, 3, 3, 3, 3, 2).band == Status.DROPPED
    assert review(3, 3, 3, 3, 3, 3).band == Status.NEEDS_REVIEW
    assert review(4, 4, 4, 4, 4, 3).band == Status.NEEDS_REVIEW
    assert review(4, 4, 4, 4, 4, 4).band == Status.KEPT
    blueprint = make_blueprint(reviews=[review(1, 1, 1, 1, 1, 1), review(5, 5, 5, 4, 4, 4)])
    assert blueprint.latest_review.total == 27 and blueprint.total_score == 27


ALL_PAIRS = list(itertools.product(Status, Status))


@pytest.mark.parametrize("old, new", ALL_PAIRS, ids=[f"{o}->{n}" for o, n in ALL_PAIRS])
def test_every_transition_is_allowed_or_refused_as_the_table_says(old, new):
    blueprint = make_blueprint(status=old)
    if new in TRANSITIONS[old]:
        check_transition(old, new)
        assert blueprint.moved_to(new).status == new
    else:
        with pytest.raises(IllegalTransition, match=f"cannot move from {old} to {new}"):
            check_transition(old, new)
        with pytest.raises(IllegalTransition):
            blueprint.moved_to(new)
        assert blueprint.status == old


def test_the_table_covers_every_status_and_never_stays_put():
    assert set(TRANSITIONS) == set(Status)
    assert all(status not in TRANSITIONS[status] for status in Status)


LEGAL = [
    # the rubric triages a proposal
    (Status.PROPOSED, Status.KEPT),
    (Status.PROPOSED, Status.NEEDS_REVIEW),
    (Status.PROPOSED, Status.DROPPED),
    # a human decides, confirming or overturning the rubric
    (Status.NEEDS_REVIEW, Status.ACCEPTED),
    (Status.NEEDS_REVIEW, Status.REJECTED),
    (Status.KEPT, Status.ACCEPTED),
    (Status.KEPT, Status.REJECTED),
    (Status.DROPPED, Status.ACCEPTED),
    (Status.DROPPED, Status.REJECTED),
    # a later rubric review (new rubric or prompt version) may move a blueprint between bands
    (Status.KEPT, Status.DROPPED),
    (Status.NEEDS_REVIEW, Status.KEPT),
    (Status.DROPPED, Status.NEEDS_REVIEW),
    # then the pipeline
    (Status.ACCEPTED, Status.IMPLEMENTED),
    (Status.IMPLEMENTED, Status.CALIBRATED),
    (Status.CALIBRATED, Status.ADMITTED),
]
ILLEGAL = [
    (Status.PROPOSED, Status.ADMITTED),
    (Status.PROPOSED, Status.IMPLEMENTED),
    (Status.PROPOSED, Status.CALIBRATED),
    (Status.DROPPED, Status.IMPLEMENTED),
    (Status.DROPPED, Status.ADMITTED),
    (Status.KEPT, Status.IMPLEMENTED),
    (Status.NEEDS_REVIEW, Status.IMPLEMENTED),
    (Status.REJECTED, Status.IMPLEMENTED),
    (Status.ACCEPTED, Status.ADMITTED),
    (Status.ACCEPTED, Status.CALIBRATED),
    (Status.IMPLEMENTED, Status.ADMITTED),
    (Status.ADMITTED, Status.PROPOSED),
    (Status.ACCEPTED, Status.ACCEPTED),
    (Status.ACCEPTED, Status.KEPT),
]


@pytest.mark.parametrize("old, new", LEGAL, ids=[f"{o}->{n}" for o, n in LEGAL])
def test_key_lifecycle_steps_are_legal(old, new):
    check_transition(old, new)


@pytest.mark.parametrize("old, new", ILLEGAL, ids=[f"{o}->{n}" for o, n in ILLEGAL])
def test_key_shortcuts_are_illegal(old, new):
    with pytest.raises(IllegalTransition) as caught:
        check_transition(old, new)
    assert str(old) in str(caught.value) and "allowed from" in str(caught.value)


def test_illegal_transition_is_a_value_error_listing_what_is_allowed():
    with pytest.raises(ValueError, match=r"allowed from calibrated: admitted, implemented, rejected"):
        check_transition(Status.CALIBRATED, Status.ACCEPTED)
