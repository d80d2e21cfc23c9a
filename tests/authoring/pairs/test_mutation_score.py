"""A pair's mutation score is filed beside its receipts and read back by `validate` and Stage II; it is stale once
the pair's judged files change, and a README edit leaves it current."""

from authoring.pairs.format import load_pair
from authoring.pairs.mutation_score import MutationScore, describe, file_score, is_current, score_file, score_on_file

from .conftest import reload

PAIR = "fleetdesk-repair-search-fstring"


def test_a_filed_score_is_read_back_and_goes_stale_with_the_detectors(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    assert describe(pair) == f"{PAIR}: no mutation score on file (`v3ast pairs mutate {PAIR}`)"

    file_score(pair, MutationScore(killed=15, counted=16, equivalent=4, survivors=["twin/solution:m7"]))
    score = score_on_file(pair)
    assert score and score.percent == 93.75 and score.survivors == ["twin/solution:m7"] and is_current(pair, score)
    assert describe(pair) == f"{PAIR}: mutation score 94 % (15 of 16 killed, 4 equivalent)"

    (pair.folder / "README.md").write_text("| mutants | 16 |\n")
    assert is_current(reload(pair.folder), score)
    goal = pair.side("twin").detector("goal")
    goal.write_text(goal.read_text() + "\n# an edit\n")
    pair = reload(pair.folder)
    assert not is_current(pair, score) and "before the pair or the judging code changed" in describe(pair)


def test_a_damaged_score_file_is_no_score(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    score_file(pair).parent.mkdir(parents=True, exist_ok=True)
    score_file(pair).write_text("{not json")
    assert score_on_file(pair) is None


def test_no_python_to_mutate_is_said_as_such(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    file_score(pair, MutationScore(killed=0, counted=0, equivalent=0))
    assert describe(pair) == f"{PAIR}: no mutants (no delivered file to mutate)"
