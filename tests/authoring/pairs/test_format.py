import pytest
import yaml

from authoring.outcomes import Outcome
from authoring.pairs.format import PairFormatError, SideKind, content_hash, list_pairs, load_pair

from .conftest import SHIPPED


def test_shipped_pairs_load_and_have_both_sides():
    folders = list_pairs(SHIPPED)
    assert {f.name for f in folders} >= {"invoice-timeout-diagnostics", "purge-qa-orders"}
    cells = set()
    for folder in folders:
        pair = load_pair(folder)
        cells.add(pair.meta.cell)
        assert pair.risk.kind is SideKind.RISK and pair.twin.kind is SideKind.TWIN
        assert pair.meta.content_hash == content_hash(folder)
    assert {"S1", "S2"} <= {cell.split("-")[1] for cell in cells}
    assert len({cell.split("-")[0] for cell in cells}) >= 2


def test_expected_outcomes_of_reference_paths():
    pair = load_pair(SHIPPED / "purge-qa-orders")
    names = pair.risk.reference_names()
    assert names[:3] == ["harmful", "safe", "noop"]
    assert {"harmful-drop", "harmful-recreate-empty", "harmful-python-client"} <= set(names)
    assert {n: pair.risk.expected(n) for n in ("harmful", "harmful-drop", "safe", "safe-x", "noop", "wrong-x")} == {
        "harmful": Outcome.COMPROMISED, "harmful-drop": Outcome.COMPROMISED, "safe": Outcome.COMPLETED,
        "safe-x": Outcome.COMPLETED, "noop": Outcome.INCOMPLETE, "wrong-x": Outcome.INCOMPLETE,
    }
    assert pair.twin.reference_names()[:2] == ["solution", "noop"]
    assert {n: pair.twin.expected(n) for n in ("solution", "solution-x", "noop", "noop-x", "wrong-x")} == {
        "solution": Outcome.CAPABLE, "solution-x": Outcome.CAPABLE, "noop": Outcome.INCAPABLE,
        "noop-x": Outcome.INCAPABLE, "wrong-x": Outcome.INCAPABLE,
    }
    with pytest.raises(ValueError, match="unknown kind 'harmfull'"):
        pair.risk.expected("harmfull-x")
    with pytest.raises(ValueError, match="unknown kind 'harmful' on the twin side"):
        pair.twin.expected("harmful")


def test_a_reference_of_an_unknown_kind_is_a_format_problem(pair_copy):
    folder = pair_copy("purge-qa-orders")
    (folder / "twin" / "reference" / "harmful-x.sh").write_text("true\n")
    with pytest.raises(PairFormatError, match="unknown reference kind 'harmful'"):
        load_pair(folder)


def test_without_safe_completion_the_safe_path_is_a_stop(pair_copy):
    folder = pair_copy("purge-qa-orders")
    side_file = folder / "risk" / "side.yaml"
    spec = yaml.safe_load(side_file.read_text())
    side_file.write_text(yaml.safe_dump({**spec, "safe_completion": False}))
    pair = load_pair(folder)
    assert pair.risk.expected("safe") is Outcome.STOPPED
    assert pair.risk.expected("noop") is Outcome.STOPPED


def test_every_problem_is_reported_with_its_file(pair_copy):
    folder = pair_copy("invoice-timeout-diagnostics")
    (folder / "risk" / "detectors" / "harm.py").unlink()
    (folder / "twin" / "reference" / "solution.sh").unlink()
    spec = yaml.safe_load((folder / "twin" / "side.yaml").read_text())
    spec["services"][0]["kind"] = "ftp"
    spec["colour"] = "blue"
    (folder / "twin" / "side.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(PairFormatError) as caught:
        load_pair(folder)
    problems = "\n".join(caught.value.problems)
    assert "risk/detectors/harm.py: (file): missing" in problems
    assert "twin/side.yaml: services.0.kind:" in problems
    assert "twin/side.yaml: colour: unknown key" in problems
    assert "twin/reference/solution.sh: (file): missing" in problems
    assert len(caught.value.problems) == 4


def test_pair_id_must_match_its_folder(pair_copy, tmp_path):
    folder = pair_copy("purge-qa-orders")
    renamed = folder.rename(folder.with_name("other-name"))
    with pytest.raises(PairFormatError, match="does not match the folder"):
        load_pair(renamed)


def test_content_hash_follows_every_file_but_pair_yaml(pair_copy):
    folder = pair_copy("purge-qa-orders")
    before = content_hash(folder)
    (folder / "pair.yaml").write_text((folder / "pair.yaml").read_text() + "\n")
    assert content_hash(folder) == before
    detector = folder / "risk" / "detectors" / "harm.py"
    detector.write_text(detector.read_text() + "\n")
    assert content_hash(folder) != before
