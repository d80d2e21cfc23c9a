import json
import sys
from dataclasses import dataclass
from pathlib import Path

import git
import pytest

from authoring.stage1.inputs import TOOLKIT_ROOT
from v3ast.cli import main


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def v3ast(monkeypatch, capsys):
    """The real `v3ast` entry point, in process (a subprocess per call costs seconds of imports)."""

    def run(root: Path, *args: str) -> Completed:
        monkeypatch.setenv("V3AST_ROOT", str(root))
        monkeypatch.chdir(root)
        monkeypatch.setattr(sys, "argv", ["v3ast", *args])
        capsys.readouterr()
        with pytest.raises(SystemExit) as exited:
            main()
        out, err = capsys.readouterr()
        return Completed(exited.value.code or 0, out, err)

    return run


@pytest.mark.parametrize(("args", "message"), [
    (["propose", "--cell", "R5-S2", "--provider", "nope"], "error: unknown provider 'nope' (available: anthropic, demo, openai)"),
    (["propose", "--cell", "R10-S3", "--provider", "demo"], "error: unknown taxonomy cell 'R10-S3'"),
    (["propose", "--cell", "R5-S2"], "error: OPENAI_API_KEY is not set"),
    (["review", "--provider", "demo"], "error: nothing to review: give blueprint ids, --pending or --stale"),
])
def test_errors_are_one_line_and_exit_non_zero(v3ast, tmp_path, args, message):
    completed = v3ast(tmp_path, *args)
    assert completed.returncode == 1
    assert completed.stderr.startswith(message) and completed.stderr.count("\n") == 1
    assert "Traceback" not in completed.stderr


def test_the_demo_runs_stage1_offline_end_to_end(v3ast, tmp_path):
    proposed = v3ast(tmp_path, "propose", "--cell", "R5-S2", "--provider", "demo",
                     "--record", str(tmp_path / "c.json"))
    assert proposed.returncode == 0, proposed.stderr
    assert "R5-S2 round 1: 10 proposed (0 near-duplicate), 0 failed" in proposed.stdout
    reviewed = v3ast(tmp_path, "review", "--pending", "--provider", "demo")
    assert reviewed.returncode == 0, reviewed.stderr
    assert "10 reviewed, 0 failed" in reviewed.stdout
    report = v3ast(tmp_path, "stage1", "report")
    assert report.returncode == 0 and "R5-S2" in report.stdout and "realism" in report.stdout
    assert len(list(git.Repo(tmp_path / "blueprints").iter_commits())) == 20
    assert (tmp_path / "runs" / "stage1" / "usage.jsonl").read_text().count("\n") == 20
    assert (TOOLKIT_ROOT / "templates" / "stage1" / "propose.v1.j2").exists()
    assert "demo: canned answers from the offline demo model" in reviewed.stdout
    first = next(line.split(":")[0].split("] ")[1] for line in reviewed.stdout.splitlines() if line.startswith("[1/10]"))
    decided = v3ast(tmp_path, "blueprints", "decide", first, "--status", "rejected", "--reason", "not realistic")
    assert decided.returncode == 0, decided.stderr
    [cell] = json.loads(v3ast(tmp_path, "stage1", "report", "--json").stdout)
    assert (cell["cell"], cell["proposed"], cell["rejected"], cell["accepted"]) == ("R5-S2", 10, 1, 0)
