"""`v3ast stage1 agreement` against figures computed by hand."""

from __future__ import annotations

import json
from math import sqrt

import pytest

from authoring.blueprint import DimensionScore, RubricReview, Status
from authoring.stage1.agreement import agreement_report, cohen_kappa, ranks, spearman
from authoring.store import BlueprintStore
from tests.authoring.stage1.test_cli import v3ast  # noqa: F401 - the fixture
from tests.reviewer_tui.conftest import DIMENSIONS, make_blueprint

# id, cell, total, realism, decision (None: undecided)
CASES = [
    ("one", "R5-S2", 28, 5, Status.ACCEPTED),
    ("two", "R5-S2", 26, 5, Status.ACCEPTED),
    ("three", "R5-S2", 24, 1, Status.REJECTED),
    ("four", "R2-S1", 10, 1, Status.REJECTED),
    ("five", "R2-S1", 14, 1, Status.REJECTED),
    ("six", "R2-S1", 20, 5, Status.ACCEPTED),
    ("seven", "R2-S1", 25, 4, None),
]


def review(total: int, realism: int) -> RubricReview:
    """`realism` first, then the rest of `total` spread over the other five dimensions (each 1–5)."""
    rest, points = total - realism, []
    for left in range(5, 0, -1):
        share = max(1, min(5, round(rest / left)))
        points.append(share)
        rest -= share
    scores = [realism, *points]
    assert sum(scores) == total and all(1 <= s <= 5 for s in scores)
    return RubricReview(reviewer="openai/gpt-5", rubric_version="r1",
                        scores=[DimensionScore(dimension=d, score=s, rationale="r")
                                for d, s in zip(DIMENSIONS, scores, strict=True)])


@pytest.fixture
def decided(tmp_path) -> BlueprintStore:
    store = BlueprintStore(tmp_path / "blueprints")
    for blueprint_id, cell, total, realism, decision in CASES:
        store.create(make_blueprint(f"bp-{blueprint_id}", cell, f"Blueprint {blueprint_id}"), actor="s1", reason="r")
        store.record_review(f"bp-{blueprint_id}", review(total, realism), actor="s1")
        if decision:
            store.decide(f"bp-{blueprint_id}", decision, actor="Ada", reason=f"{decision} {blueprint_id}")
    return store


def test_kappa_and_spearman_by_hand():
    # κ: p_o = 4/5, p_e = .6·.4 + .4·.6 = .48 → (.8 − .48) / .52
    assert (cohen_kappa([True, True, True, False, False], [True, True, False, False, False])
            == pytest.approx(0.32 / 0.52))
    assert cohen_kappa([True, True], [True, True]) is None
    assert ranks([28, 26, 24, 10, 14, 20]) == [6, 5, 4, 1, 2, 3]
    assert ranks([1, 1, 0, 0, 0, 1]) == [5, 5, 2, 2, 2, 5]
    # ρ: Σdx·dy = 10.5, Σdx² = 17.5, Σdy² = 13.5
    assert spearman([28, 26, 24, 10, 14, 20], [1, 1, 0, 0, 0, 1]) == pytest.approx(10.5 / sqrt(17.5 * 13.5))
    assert spearman([1, 2, 3], [4, 4, 4]) is None


def test_the_report_over_a_store(decided):
    found = agreement_report(decided.load_all()[0], DIMENSIONS)
    assert (found.overall.pairs, found.overall.kappa_pairs, found.undecided) == (6, 5, 1)
    assert found.overall.kappa == pytest.approx(0.32 / 0.52)
    assert found.overall.rho_total == pytest.approx(10.5 / sqrt(17.5 * 13.5))
    assert found.overall.in_review_band == {"accepted": 1, "rejected": 0}
    assert found.rho_per_dimension["realism"] == pytest.approx(1.0)
    r5 = found.per_cell["R5-S2"]  # kept ×3 against accept, accept, reject: p_o = 2/3, p_e = 1·2/3 + 0·1/3 → κ 0
    assert (r5.pairs, r5.kappa) == (3, pytest.approx(0.0))
    assert r5.rho_total == pytest.approx(sqrt(3) / 2)  # ranks 3,2,1 against 2.5,2.5,1
    r2 = found.per_cell["R2-S1"]  # dropped/dropped against reject/reject: κ undefined; ρ over 10, 14, 20
    assert r2.kappa is None and r2.rho_total == pytest.approx(sqrt(3) / 2)
    assert [(p.id, p.actor, p.reason) for p in found.disagreements] == [("bp-three", "Ada", "rejected three")]


def test_the_command(decided, v3ast, tmp_path):  # noqa: F811
    shown = v3ast(tmp_path, "stage1", "agreement")
    assert shown.returncode == 0, shown.stderr
    assert "0.62" in shown.stdout and "0.68" in shown.stdout and "bp-three" in shown.stdout
    figures = json.loads(v3ast(tmp_path, "stage1", "agreement", "--json").stdout)
    assert figures["overall"]["kappa"] == pytest.approx(0.32 / 0.52)
    assert figures["disagreements"][0]["id"] == "bp-three"


def test_kappa_is_printed_with_the_raw_agreement_and_its_n(decided, v3ast, tmp_path):  # noqa: F811
    found = agreement_report(decided.load_all()[0], DIMENSIONS)
    assert found.per_cell["R5-S2"].raw_agreement == pytest.approx(2 / 3) and found.overall.raw_agreement == 0.8
    lines = v3ast(tmp_path, "stage1", "agreement").stdout.splitlines()
    assert lines[1].split("\t") == ["cell", "decided", "κ (kept/dropped)", "agreed", "n", "ρ total",
                                    "review band: acc/rej"]
    assert lines[2].split("\t")[:5] == ["R2-S1", "3", "–", "100%", "2"]
    assert lines[3].split("\t")[:5] == ["R5-S2", "3", "0.00", "67%", "3"]  # κ 0 reads as chance, not as 0 agreed
    assert lines[4].split("\t")[:5] == ["all", "6", "0.62", "80%", "5"]


def test_the_report_says_which_counts_are_statuses_now_and_which_are_rubric_bands(decided, v3ast, tmp_path):  # noqa: F811
    lines = v3ast(tmp_path, "stage1", "report").stdout.splitlines()
    status = lines.index(next(line for line in lines if line.startswith("Status now")))
    assert lines[status + 1:status + 4] == ["cell\tblueprints\tproposed\taccepted+\trejected\tnear-duplicate",
                                            "R2-S1\t4\t0\t1\t2\t0", "R5-S2\t3\t0\t2\t1\t0"]
    bands = lines.index(next(line for line in lines if line.startswith("Rubric band of the latest review")))
    assert lines[bands + 1:bands + 4] == ["cell\treviewed\tkept\treview\tdropped", "R2-S1\t4\t1\t1\t2",
                                          "R5-S2\t3\t3\t0\t0"]  # bp-three: kept by the rubric, rejected by Ada
