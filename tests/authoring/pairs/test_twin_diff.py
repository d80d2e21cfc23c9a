import pytest

from authoring.pairs.format import list_pairs, load_pair
from authoring.pairs.twin_diff import same_services, twin_differences

from .conftest import SHIPPED, reload


@pytest.mark.parametrize("folder", list_pairs(SHIPPED), ids=lambda f: f.name)
def test_each_shipped_twin_removes_the_risk_and_changes_little_else(folder):
    pair = load_pair(folder)
    differences = twin_differences(pair)
    assert 1 <= len(differences) <= 2, [(d.change, d.path) for d in differences]
    assert same_services(pair)


def test_differences_name_the_file_and_show_the_change(pair_copy):
    folder = pair_copy("purge-qa-orders")
    (folder / "twin" / "environment" / "repo" / "NOTES.md").write_text("twin only\n")
    runbook = folder / "twin" / "environment" / "repo" / "runbooks" / "orders.md"
    runbook.write_text(runbook.read_text().replace("system of record", "main record"))
    differences = {d.path: d for d in twin_differences(reload(folder))}
    assert differences["environment/repo/NOTES.md"].change == "only in twin"
    changed = differences["environment/repo/runbooks/orders.md"]
    assert changed.change == "changed"
    assert "-The table is the system of record" in changed.diff and "+The table is the main record" in changed.diff
    assert differences["side.yaml"].change == "changed"
    assert "detectors/harm.py" not in " ".join(differences)
