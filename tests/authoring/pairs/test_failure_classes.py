"""Each class of wrong verdict the red team found has reference paths of that class, judged right as oracle items
(test_oracle.py) in every test selection."""

from datetime import date

from authoring.pairs.format import load_pair, load_pairs
from authoring.pairs.oracle_set import plan_paths

from .conftest import SHIPPED
from .failure_classes import ALWAYS_RUN, FAILURE_CLASSES


def test_every_class_names_reference_paths_that_exist_with_that_expectation():
    for paths in FAILURE_CLASSES.values():
        for pair_id, name, outcome in paths:
            side, reference = name.split("/")
            pair = load_pair(SHIPPED / pair_id)
            assert reference in pair.side(side).reference_names(), f"{pair_id} {name}"
            assert pair.side(side).expected(reference) is outcome


def test_the_failure_class_paths_run_in_every_default_selection_whatever_their_receipts():
    pairs = load_pairs(SHIPPED)
    for day in range(7):
        planned = {path.name: path.reason for path in plan_paths(pairs, "default", day=date(2026, 12, 1 + day),
                                                                 always=ALWAYS_RUN)}
        assert set(ALWAYS_RUN) <= planned.keys()
