import os
import subprocess
import sys
from pathlib import Path

import pytest

from calibration.matrix import MatrixError, load_matrix, plan_matrix, run_matrix, unfinished
from calibration.outcome_index import OutcomeIndex
from calibration.records import records_folder
from tests.calibration.records_factory import record

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "calibration" / "matrix.paper.yaml"
SMALL = """\
name: small
runs: 2
models:
  - {name: gpt-x, endpoint: "http://127.0.0.1:9/v1", provider: openai, wire: responses}
  - {name: claude-x, endpoint: "http://127.0.0.1:9/v1", provider: anthropic, wire: anthropic}
harnesses: [mini-swe-agent, codex, claude-code]
exclusions:
  - {models: [claude-x], harnesses: [codex], reason: reasoning state lost}
"""


def matrix_file(tmp_path: Path, text: str = SMALL) -> Path:
    path = tmp_path / "matrix.yaml"
    path.write_text(text)
    return path


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from v3ast.cli import main; main()", *args], cwd=cwd,
                          env=dict(os.environ, V3AST_ROOT=str(cwd), PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=120)


def test_the_paper_matrix_plans_51_combinations_without_the_reasoning_state_exclusions():
    matrix = load_matrix(PAPER)
    plan = plan_matrix(matrix, [f"pair-{n}" for n in range(13)])
    assert (len(matrix.models), len(matrix.harnesses)) == (11, 5)
    assert len(plan.combinations) == 51
    assert sorted(c.label for c in plan.excluded) == ["claude-large × codex", "claude-small × codex",
                                                       "gpt-large × claude-code", "gpt-small × claude-code"]
    assert all(c.excluded.startswith("reasoning state lost") for c in plan.excluded)
    assert len(plan.runs) == 51 * 13 * 2 * 4
    assert len({run.key for run in plan.runs}) == len(plan.runs)
    assert not {c.batch for c in plan.excluded} & {run.key.batch for run in plan.runs}


def test_a_plan_is_pair_side_index_per_combination(tmp_path):
    plan = plan_matrix(load_matrix(matrix_file(tmp_path)), ["b", "a", "a"], runs=3)
    assert plan.pairs == ("a", "b") and plan.k == 3
    assert [c.label for c in plan.combinations] == ["gpt-x × mini-swe-agent", "gpt-x × codex", "gpt-x × claude-code",
                                                     "claude-x × mini-swe-agent", "claude-x × claude-code"]
    keys = plan.of(plan.combinations[1])
    assert len(keys) == 2 * 2 * 3
    assert {str(k) for k in keys if k.pair == "a" and k.index == 2} == {"small--gpt-x--codex/a/risk/2",
                                                                        "small--gpt-x--codex/a/twin/2"}


def test_a_resumed_matrix_runs_only_what_has_no_finished_record(tmp_path):
    runs_root = tmp_path / "runs"
    plan = plan_matrix(load_matrix(matrix_file(tmp_path)), ["a", "b"])
    calls = []

    def runner(combination, pairs, k):  # stands in for the harness adapters: records every run of the batch
        calls.append(combination.label)
        index = OutcomeIndex(records_folder(runs_root, combination.batch))
        for key in plan.of(combination):
            if combination.model.name == "claude-x" and key.pair == "b":
                return  # killed part-way
            outcome = "COMPROMISED" if key.side == "risk" else "CAPABLE"
            index.write(key.path(runs_root), record(key.pair, key.side, key.index, outcome, batch=key.batch), [])

    hashes = {"a": "h", "b": "h"}
    assert len(unfinished(plan, runs_root, hashes)) == 5 * 2 * 2 * 2
    assert len(run_matrix(plan, runner, runs_root, hashes)) == 5
    left = unfinished(plan, runs_root, hashes)
    assert {str(run.key) for run in left} == {f"small--claude-x--{h}/b/{side}/{i}" for h in ("mini-swe-agent",
                                              "claude-code") for side in ("risk", "twin") for i in range(2)}
    calls.clear()
    seen = []
    ran = run_matrix(plan, runner, runs_root, hashes, progress=lambda c, todo, planned: seen.append((c.label, todo,
                                                                                                     planned)))
    assert [c.label for c in ran] == calls == ["claude-x × mini-swe-agent", "claude-x × claude-code"]
    assert seen == [("claude-x × mini-swe-agent", 4, 8), ("claude-x × claude-code", 4, 8)]
    # a changed: all its runs again
    assert len(unfinished(plan, runs_root, {"a": "changed", "b": "h"})) == 5 * 2 * 2 + 2 * 2 * 2


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("wire: responses", "wire: grpc"),
     "models.0.wire: 'grpc' is not a wire format (anthropic, openai, responses)"),
    (lambda t: t.replace("provider: openai,", "provider: acme,"), "models.0.provider: Input should be"),
    (lambda t: t.replace('endpoint: "http://127.0.0.1:9/v1", provider: openai', 'endpoint: "ftp:x", provider: openai'),
     "models.0.endpoint: 'ftp:x' is not an http(s) URL"),
    (lambda t: t.replace("[claude-x], harnesses: [codex]", "[claude-y], harnesses: [codex]"),
     "exclusions.0.models: claude-y not in models (claude-x, gpt-x)"),
    (lambda t: t.replace("harnesses: [codex]", "harnesses: [opencode]"),
     "exclusions.0.harnesses: opencode not in harnesses"),
    (lambda t: t.replace("reason: reasoning state lost", "reason: ' '"),
     "exclusions.0.reason: must say why"),
    (lambda t: t.replace("claude-code]", "claude-code, codex]"), "harnesses: codex listed twice"),
    (lambda t: t.replace("runs: 2", "runs: 2\ncolour: red"), "colour: unknown key"),
    (lambda t: t.replace("name: small", "name: my matrix"), "name: 'my matrix' is not a name"),
    (lambda t: t.replace("name: small\n", ""), "name: required field is missing"),
    (lambda t: t.replace("models:", "models: [", 1), "not YAML"),
    (lambda t: "- just a list\n", "expected a mapping"),
])
def test_a_malformed_matrix_is_one_line_naming_the_file_and_field(tmp_path, edit, message):
    path = matrix_file(tmp_path, edit(SMALL))
    with pytest.raises(MatrixError) as error:
        load_matrix(path)
    text = str(error.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_matrix_check_prints_the_combinations_and_bad_files_fail_in_one_line(tmp_path):
    shown = cli("matrix", "check", str(PAPER), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "51 combinations planned (11 models × 5 harnesses − 4 excluded); 4 risk + 4 twin runs" in shown.stdout
    assert shown.stdout.count("excluded: reasoning state lost") == 4
    bad = cli("matrix", "check", str(matrix_file(tmp_path, SMALL.replace("wire: responses", "wire: grpc"))),
              cwd=tmp_path)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [f"error: {tmp_path / 'matrix.yaml'}: models.0.wire: 'grpc' is not a "
                                                "wire format (anthropic, openai, responses)"]
