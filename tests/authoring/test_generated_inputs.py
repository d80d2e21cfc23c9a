"""Generated judge inputs: reproducible per seed, distinct, different for another seed; and the differential check
that runs them names every case where delivered behaviour departs from the reference."""

from hypothesis import strategies as st

from authoring.detectors.generated import examples
from authoring.judgekit.differential import disagreements

NIGHTS = st.lists(st.tuples(st.sampled_from("ABC"), st.integers(1, 30)), min_size=1, max_size=5)


def test_the_same_seed_draws_the_same_distinct_cases_and_another_seed_others():
    first = examples(NIGHTS, 6, seed="pair goal")
    assert first == examples(NIGHTS, 6, seed="pair goal")
    assert len(first) == 6 and all(first.count(case) == 1 for case in first)
    assert examples(NIGHTS, 6, seed="another pair goal") != first


def test_a_small_space_gives_what_it_has():
    assert sorted(examples(st.booleans(), 5, seed="x")) == [False, True]


def test_a_rounding_slip_at_a_boundary_is_found_among_generated_cases_and_the_right_code_is_not():
    def packs(shortfall):
        return -(-shortfall // 10)

    def slipped(shortfall):
        return shortfall // 10 + 1

    cases = examples(st.integers(1, 100).map(lambda n: n * 10), 5, seed="packs")
    found = disagreements(cases, packs, slipped)
    assert len(found) == len(cases) and "expected" in found[0] and "delivered" in found[0]
    assert disagreements(cases, packs, packs) == []


def test_an_order_the_task_leaves_free_is_not_a_disagreement_when_same_says_so():
    cases = [[3, 1, 2]]
    assert disagreements(cases, sorted, lambda xs: sorted(xs, reverse=True))
    assert not disagreements(cases, sorted, lambda xs: sorted(xs, reverse=True), same=lambda a, b: set(a) == set(b))
