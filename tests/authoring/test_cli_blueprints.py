import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from authoring.blueprint import Status
from authoring.cli.blueprints import app
from authoring.store import BlueprintStore
from tests.fixtures.blueprints import (
    BROKEN,
    EXPECTED_PROBLEMS,
    GOOD,
    KEEP,
    REVIEW,
    git,
    make_blueprint,
    new_project,
    review,
)

V3AST = str(Path(sys.executable).parent / "v3ast")


def seeded(tmp_path: Path) -> Path:
    store = new_project(tmp_path)
    store.create(make_blueprint("keep-me"), actor="bot", reason="")
    store.record_review("keep-me", review(*KEEP), actor="rubric")
    store.create(make_blueprint("look-at-me", taxonomy_id="R3-S1", title="Markup [bold]stays[/bold] [/text]"),
                 actor="bot", reason="")
    store.record_review("look-at-me", review(*REVIEW), actor="rubric")
    return tmp_path


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    """A project for tests that must not change it (they check that they did not)."""
    return seeded(tmp_path_factory.mktemp("shared"))


@pytest.fixture
def project(tmp_path) -> Path:
    return seeded(tmp_path)


def environment(project: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "V3AST_DEBUG"}
    env.update(V3AST_ROOT=str(project), COLUMNS="200")
    return env


def v3ast(project: Path, *args: str) -> subprocess.CompletedProcess:
    """The real entry point, in its own process."""
    return subprocess.run([V3AST, *args], env=environment(project), capture_output=True, text=True, timeout=60)


def blueprints(project: Path, *args: str) -> Result:
    """`v3ast blueprints …` in this process (faster; errors at the boundary are tested through `v3ast`)."""
    return CliRunner().invoke(app, list(args), env={"V3AST_ROOT": str(project), "COLUMNS": "200"})


def rows(output: str) -> list[list[str]]:
    return [line.split() for line in output.splitlines()[1:] if line.strip()]


def test_help_for_the_noun(shared):
    result = v3ast(shared, "blueprints", "--help")
    assert result.returncode == 0
    for command in ["list", "show", "check", "decide"]:
        assert command in result.stdout


def test_list_filters_by_cell_and_status(shared):
    everything = blueprints(shared, "list")
    assert everything.exit_code == 0, everything.output
    assert [row[:4] for row in rows(everything.stdout)] == [
        ["look-at-me", "R3-S1", "needs_review", "18/30"],
        ["keep-me", "R5-S2", "kept", "24/30"],
    ]
    by_cell = blueprints(shared, "list", "--cell", "R3-S1")
    assert [row[0] for row in rows(by_cell.stdout)] == ["look-at-me"]
    by_status = blueprints(shared, "list", "--status", "kept")
    assert [row[:4] for row in rows(by_status.stdout)] == [["keep-me", "R5-S2", "kept", "24/30"]]
    assert rows(blueprints(shared, "list", "--status", "admitted").stdout) == []
    assert [row[0] for row in rows(blueprints(shared, "list", "--band", "needs_review").stdout)] == ["look-at-me"]
    assert [row[0] for row in rows(blueprints(shared, "list", "--text", "MARKUP").stdout)] == ["look-at-me"]


def test_list_shows_titles_literally(shared):
    result = blueprints(shared, "list", "--cell", "R3-S1")
    assert "Markup [bold]stays[/bold] [/text]" in result.stdout


def test_show_prints_fields_reviews_and_history_literally(shared):
    result = blueprints(shared, "show", "look-at-me")
    assert result.exit_code == 0, result.output
    assert "look-at-me — Markup [bold]stays[/bold] [/text]" in result.stdout
    assert make_blueprint().trap in result.stdout
    assert "review by openai/gpt-test: 18/30 → needs_review" in result.stdout
    assert "blueprint look-at-me: proposed → needs_review" in result.stdout


def test_check_broken_folder_prints_one_precise_line_per_problem(shared):
    result = v3ast(shared, "blueprints", "check", str(BROKEN))
    assert result.returncode == 1
    expected = sorted(f"{BROKEN / name}: {line}" for name, lines in EXPECTED_PROBLEMS.items() for line in lines)
    assert sorted(result.stdout.splitlines()) == expected
    assert result.stderr.strip() == f"{len(EXPECTED_PROBLEMS)} file(s) checked, {len(expected)} problem(s)"


@pytest.mark.parametrize("cell", ["R1-S1", "R2-S1"])
def test_check_a_cell_folder_checks_every_file_in_it(shared, cell):
    result = blueprints(shared, "check", str(BROKEN / cell))
    expected = sorted(f"{BROKEN / name}: {line}" for name, lines in EXPECTED_PROBLEMS.items()
                      if name.startswith(cell) for line in lines)
    assert result.exit_code == 1
    assert sorted(result.stdout.splitlines()) == expected


def test_check_a_store_folder_skips_its_rubric_and_sources(tmp_path):
    store = new_project(tmp_path)
    store.create(make_blueprint("keep-me"), actor="bot", reason="")
    (store.folder / "rubric.yaml").write_text("version: r1\ndimensions: []\n")
    (store.folder / "sources").mkdir()
    (store.folder / "sources" / "s.yaml").write_text("id: s\n")
    result = blueprints(tmp_path, "check", str(store.folder))
    assert (result.exit_code, result.stdout) == (0, "")
    assert "1 file(s) checked" in result.stderr


def test_check_single_broken_file(shared):
    path = BROKEN / "R1-S1" / "unknown-key.yaml"
    result = blueprints(shared, "check", str(path))
    assert (result.exit_code, result.stdout) == (1, f"{path}: severity: unknown key\n")


def test_check_good_files_and_the_default_store(shared):
    assert blueprints(shared, "check", str(GOOD)).exit_code == 0
    result = blueprints(shared, "check")
    assert (result.exit_code, result.stdout) == (0, "")
    assert "2 file(s) checked, 0 problem(s)" in result.stderr


def test_check_does_not_create_a_repository(tmp_path):
    result = blueprints(tmp_path, "check", str(GOOD))
    assert result.exit_code == 0
    assert list(tmp_path.iterdir()) == []


def test_decide_writes_a_commit(project):
    result = v3ast(project, "blueprints", "decide", "look-at-me", "--status", "accepted",
                   "--actor", "carol", "--reason", "solid scenario")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "look-at-me: needs_review → accepted by carol"
    blueprint = BlueprintStore(project / "blueprints").get("look-at-me")
    assert blueprint.status == Status.ACCEPTED and blueprint.decisions[-1].actor == "carol"
    last = git(project, "log", "-1", "--format=%an|%s%n%b")
    assert last.startswith("carol|blueprint look-at-me: needs_review → accepted")
    assert "reason: solid scenario" in last
    assert git(project, "status", "--porcelain") == ""


def test_decide_needs_no_reason_to_agree_with_the_rubric_and_one_to_override_a_person(project):
    agreed = v3ast(project, "blueprints", "decide", "keep-me", "--status", "acc", "--actor", "carol")
    assert agreed.returncode == 0, agreed.stderr
    assert "reason: (none given)" in git(project, "log", "-1", "--format=%b")
    overridden = v3ast(project, "blueprints", "decide", "keep-me", "--status", "review", "--actor", "dana")
    assert overridden.returncode == 1
    assert overridden.stderr.startswith("error: a reason is required: it overturns carol's accepted of ")
    assert BlueprintStore(project / "blueprints").get("keep-me").status == Status.ACCEPTED
    again = v3ast(project, "blueprints", "decide", "keep-me", "--status", "review", "--actor", "carol")
    assert again.returncode == 0, again.stderr


def test_an_implemented_blueprint_is_not_a_persons_to_move(project):
    store = BlueprintStore(project / "blueprints")
    store.decide("keep-me", Status.ACCEPTED, actor="carol", reason="")
    store.advance("keep-me", Status.IMPLEMENTED, actor="stage2", reason="shipped")
    before = git(project, "rev-parse", "HEAD")
    for decision in ("accepted", "rejected", "needs_review"):
        result = v3ast(project, "blueprints", "decide", "keep-me", "--status", decision, "--reason", "second thoughts")
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert result.stderr.splitlines() == ["error: the blueprint is implemented: from implemented on, its status "
                                              "is owned by Stage II, not by a person"]
    assert git(project, "rev-parse", "HEAD") == before
    assert store.get("keep-me").status == Status.IMPLEMENTED


def test_decide_defaults_the_actor_to_the_git_user(project):
    git(project, "config", "user.name", "Dana Reviewer")
    result = v3ast(project, "blueprints", "decide", "keep-me", "--status", "accepted", "--reason", "ok")
    assert result.returncode == 0, result.stderr
    assert git(project, "log", "-1", "--format=%an").strip() == "Dana Reviewer"


BAD_INPUT = {
    "show unknown id": (["show", "nope"], "error: no blueprint with id 'nope'"),
    "decide unknown id": (["decide", "nope", "--status", "accepted", "--reason", "x"],
                          "error: no blueprint with id 'nope'"),
    "unknown cell": (["list", "--cell", "R0-S9"], "error: Invalid value for '--cell': unknown cell 'R0-S9'"),
    "unknown status": (["list", "--status", "finished"], "error: Invalid value for '--status'"),
    "not a person's decision": (["decide", "keep-me", "--status", "admitted", "--reason", "x"],
                                "error: a person decides accepted, needs_review, rejected; admitted is set by"),
    "illegal transition": (["decide", "look-at-me", "--status", "needs_review", "--reason", "x"],
                           "error: cannot move from"),
    "missing reason against the rubric": (["decide", "keep-me", "--status", "rejected"],
                                          "error: a reason is required: it overturns the rubric's kept with rejected"),
    "blank reason against the rubric": (["decide", "keep-me", "--status", "rejected", "--reason", " "],
                                        "error: a reason is required: it overturns the rubric's kept with rejected"),
    "ambiguous status": (["list", "--status", "a"],
                         "error: Invalid value for '--status': status 'a' matches several of"),
    "missing status": (["decide", "keep-me", "--reason", "x"], "error: Missing option '--status'"),
    "unknown command": (["nope"], "error: No such command 'nope'"),
}


@pytest.fixture(scope="module")
def bad_input_results(shared) -> dict[str, tuple[int, str, str]]:
    """Every bad-input case through the real `v3ast`, run side by side to keep the suite fast."""
    before = git(shared, "rev-parse", "HEAD")
    running = {
        case: subprocess.Popen([V3AST, "blueprints", *args], env=environment(shared),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for case, (args, _) in BAD_INPUT.items()
    }
    results = {}
    for case, process in running.items():
        stdout, stderr = process.communicate(timeout=60)
        results[case] = (process.returncode, stdout, stderr)
    assert git(shared, "rev-parse", "HEAD") == before, "bad input made a commit"
    assert git(shared, "status", "--porcelain") == "", "bad input changed a file"
    return results


@pytest.mark.parametrize("case", BAD_INPUT)
def test_bad_input_gives_one_line_and_a_nonzero_exit(bad_input_results, case):
    code, stdout, stderr = bad_input_results[case]
    assert code != 0
    assert "Traceback" not in stderr + stdout
    assert len(stderr.splitlines()) == 1, stderr
    assert stderr.startswith(BAD_INPUT[case][1])


def test_an_ambiguous_status_lists_only_the_statuses_it_could_be(bad_input_results):
    stderr = bad_input_results["ambiguous status"][2]
    assert stderr.strip().endswith("status 'a' matches several of: accepted, admitted")


def test_list_and_show_as_json(shared):
    import json

    listed = json.loads(blueprints(shared, "list", "--json", "--cell", "R3-S1").stdout)
    assert [b["id"] for b in listed] == ["look-at-me"] and listed[0]["title"] == "Markup [bold]stays[/bold] [/text]"
    shown = json.loads(blueprints(shared, "show", "look-at-me", "--json").stdout)
    assert shown["status"] == "needs_review" and len(shown["reviews"]) == 1
    assert [h["message"].splitlines()[0] for h in shown["history"]] == [
        "blueprint look-at-me: proposed → needs_review", "blueprint look-at-me: created as proposed"]


def test_an_empty_actor_is_refused(project):
    result = v3ast(project, "blueprints", "decide", "keep-me", "--status", "accepted", "--reason", "ok", "--actor", " ")
    assert result.returncode != 0 and "an actor needs a name" in result.stderr
    assert git(project, "status", "--porcelain") == ""
