"""Validation receipts: which paths need a run after an edit, and `pairs validate --changed` in a project."""

import json
import os
import subprocess
import sys
from datetime import date, timedelta

import pytest

from authoring.pairs.format import SideKind, load_pair, load_pairs
from authoring.pairs.oracle_set import ROTATION_DAYS, plan_paths, smoke_references
from authoring.pairs.receipts import PairReceipts

from .conftest import SHIPPED, reload

PAIR = "purge-qa-orders"


def file_every_path(pair, observed=None):
    receipts = PairReceipts(pair)
    for kind in SideKind:
        for reference in pair.side(kind).reference_names():
            receipts.record(kind, reference, observed or str(pair.side(kind).expected(reference)), 1.0)
    return receipts


def stale(pair):
    receipts = PairReceipts(pair)
    return {f"{kind}/{ref}": why for kind in SideKind for ref in pair.side(kind).reference_names()
            if (why := receipts.staleness(kind, ref))}


def test_an_edited_path_needs_a_run_and_its_neighbours_do_not(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    assert set(stale(pair).values()) == {"no receipt"}
    file_every_path(pair)
    assert stale(pair) == {}
    (pair.folder / "twin" / "reference" / "noop.sh").write_text("#!/bin/bash\ngit status\ntrue\n")
    assert stale(reload(pair.folder)) == {"twin/noop": "path changed"}


def test_the_readme_is_for_readers_and_needs_no_new_proof(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    file_every_path(pair)
    readme = pair.folder / "README.md"
    readme.write_text(readme.read_text() + "\n| red team | tried 8 |\n")
    assert stale(reload(pair.folder)) == {}


def test_an_edited_detector_or_environment_makes_every_path_of_the_pair_stale(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    file_every_path(pair)
    goal = pair.side(SideKind.TWIN).detector("goal")
    goal.write_text(goal.read_text() + "\n# an edit\n")
    reasons = stale(reload(pair.folder))
    assert len(reasons) == sum(len(pair.side(k).reference_names()) for k in SideKind)
    assert set(reasons.values()) == {"pair changed"}


def test_a_failed_path_stays_stale_and_a_damaged_file_proves_nothing(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    receipts = file_every_path(pair)
    receipts.record(SideKind.RISK, "harmful", "INCOMPLETE", 2.0)
    assert stale(pair) == {"risk/harmful": "came out INCOMPLETE, expected COMPROMISED"}
    receipts.file.write_text("{not json")
    assert set(stale(pair).values()) == {"no receipt"}


def test_a_rerun_with_the_same_outcome_leaves_the_file_as_it_was(pair_copy):
    pair = load_pair(pair_copy(PAIR))
    receipts = file_every_path(pair)
    before = receipts.file.read_bytes()
    file_every_path(pair)
    assert receipts.file.read_bytes() == before
    assert json.loads(before)["paths"]["twin/noop"]["observed"] == "INCAPABLE"


def test_the_default_selection_is_stale_paths_the_smoke_set_and_a_weekday_sample_covering_all_in_a_week(pair_copy):
    pairs = load_pairs(SHIPPED)
    total = sum(len(p.side(k).reference_names()) for p in pairs for k in SideKind)
    fresh = load_pair(pair_copy(PAIR))
    file_every_path(fresh)
    day = date(2026, 12, 2)
    planned = plan_paths([fresh], "default", day=day)
    assert {p.reason for p in planned} <= {"smoke", "sample"}
    assert {(p.side, p.reference) for p in planned if p.reason == "smoke"} == {
        (kind, ref) for kind in SideKind for ref in smoke_references(fresh, kind)}
    seen = set()
    for offset in range(ROTATION_DAYS):
        seen |= {(p.side, p.reference) for p in plan_paths([fresh], "default", day=day + timedelta(offset))}
    assert seen == {(kind, ref) for kind in SideKind for ref in fresh.side(kind).reference_names()}
    assert len(plan_paths(pairs, "all")) == total
    assert plan_paths([fresh], "changed") == []


def validate(root, *arguments):
    command = [sys.executable, "-c", "from v3ast.cli import main; main()", "pairs", "validate", PAIR, *arguments]
    return subprocess.run(command, env={**os.environ, "V3AST_ROOT": str(root)}, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.docker
def test_validate_files_receipts_and_changed_runs_only_what_lacks_one(docker_client, base_image, pair_copy):
    folder = pair_copy(PAIR)
    root = folder.parents[1]
    first = validate(root, "--only", "twin/noop")
    assert first.returncode == 0, first.stdout + first.stderr
    receipts = json.loads((root / "generated_tasks" / ".receipts" / f"{PAIR}.json").read_text())
    assert list(receipts["paths"]) == ["twin/noop"]
    again = validate(root, "--changed", "--only", "twin/noop")
    assert again.returncode == 0 and "0 of 1 reference paths" in again.stdout
    assert "twin\tnoop" not in again.stdout
    (folder / "twin" / "reference" / "noop.sh").write_text("#!/bin/bash\ngit status\n\ngit log -1 --oneline\n")
    edited = validate(root, "--changed", "--only", "twin/noop")
    assert edited.returncode == 0, edited.stdout + edited.stderr
    assert "1 of 1 reference paths: 1 stale" in edited.stdout
    assert "twin\tnoop\tINCAPABLE\tINCAPABLE\tok" in edited.stdout


@pytest.mark.docker
def test_receipts_that_cannot_be_written_are_said_once_and_the_verdicts_stand(docker_client, base_image, pair_copy):
    folder = pair_copy(PAIR)
    root = folder.parents[1]
    (root / "generated_tasks" / ".receipts").write_text("a file where the receipts folder should be\n")
    done = validate(root, "--only", "twin/noop", "--only", "twin/solution", "--workers", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("receipts not filed") == 1
    assert "2/2 reference paths as expected" in done.stdout
