import json
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import git
import pytest

from authoring.offline.model_servers import Hang, RawReply, ScriptedModelServer
from authoring.offline.stage1_model import demo_responder, last_user_text
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
    (["propose", "--cell", "R5-S2", "--provider", "nope"],
     "error: unknown provider 'nope' (available: anthropic, demo, openai)"),
    (["propose", "--cell", "R10-S3", "--provider", "demo"],
     "error: unknown cell 'R10-S3' (expected a cell such as R5-S2)"),
    (["propose", "--cell", "R5-S2"], "error: OPENAI_API_KEY is not set"),
    (["review", "--provider", "demo"], "error: nothing to review: give blueprint ids, --pending or --stale"),
])
def test_errors_are_one_line_and_exit_non_zero(v3ast, tmp_path, args, message):
    (tmp_path / "blueprints").mkdir()
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
    first = next(line.split(":")[0].split("] ")[1]
                 for line in reviewed.stdout.splitlines() if line.startswith("[1/10]"))
    decided = v3ast(tmp_path, "blueprints", "decide", first, "--status", "rejected", "--reason", "not realistic")
    assert decided.returncode == 0, decided.stderr
    [cell] = json.loads(v3ast(tmp_path, "stage1", "report", "--json").stdout)
    assert (cell["cell"], cell["proposed"], cell["rejected"], cell["accepted"]) == ("R5-S2", 10, 1, 0)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_dead_endpoint_is_said_once_and_stops_at_once(v3ast, tmp_path):
    port = free_port()
    started = time.monotonic()
    completed = v3ast(tmp_path, "propose", "--cell", "r5-s2", "--base-url", f"http://127.0.0.1:{port}/v1")
    assert completed.returncode == 1
    assert completed.stderr.splitlines()[-1] == f"error: cannot reach http://127.0.0.1:{port}: connection refused"
    assert completed.stderr.count("cannot reach") == 1 and "failed" not in completed.stdout
    assert time.monotonic() - started < 10  # no backoff: the default policy would wait 1+2+4+8 s per call


def test_no_command_creates_a_store_unasked_and_propose_says_it_started_one(v3ast, tmp_path):
    for args in (["blueprints", "list"], ["blueprints", "check"], ["review", "--pending", "--provider", "demo"],
                 ["stage1", "report"]):
        completed = v3ast(tmp_path, *args)
        assert completed.returncode == 1, args
        assert completed.stderr.startswith(f"error: no blueprint store at {tmp_path / 'blueprints'}: run v3ast in a")
        assert not (tmp_path / "blueprints").exists()
    proposed = v3ast(tmp_path, "propose", "--cell", "R2-S1", "--provider", "demo")
    assert proposed.returncode == 0, proposed.stderr
    assert f"started a new blueprint store at {tmp_path / 'blueprints'} (its own new git repository)" in proposed.stderr
    progress = [line for line in proposed.stdout.splitlines() if line.startswith("[")]
    assert [line.split("]")[0] for line in progress] == [f"[{n}/10" for n in range(1, 11)]
    assert "demo" in proposed.stdout
    again = v3ast(tmp_path, "propose", "--cell", "R2-S1", "--provider", "demo")
    assert "started a new blueprint store" not in again.stderr


def test_cells_statuses_and_bands_read_alike_on_the_command_line_and_in_the_app(v3ast, tmp_path):
    from authoring.blueprint import Status
    from authoring.status_names import parse_band, parse_status
    from authoring.taxonomy import parse_cell
    from reviewer_tui.query import parse_filters

    assert parse_filters("cell:r5-s2 status:review band:kept") | {"text": ""} == {
        "cell": parse_cell("r5-s2"), "status": parse_status("review"), "band": parse_band("kept"),
        "duplicate": None, "stale": None, "by": None, "text": ""}
    assert (parse_cell("r5-s2"), parse_cell("R5"), parse_status("review")) == ("R5-S2", "R5", Status.NEEDS_REVIEW)
    v3ast(tmp_path, "propose", "--cell", "R5-S2", "--provider", "demo")
    v3ast(tmp_path, "review", "--pending", "--provider", "demo")
    listed = v3ast(tmp_path, "blueprints", "list", "--cell", "r5", "--band", "kep")
    assert listed.returncode == 0
    rows = [line.split("\t") for line in listed.stdout.splitlines()[1:]]
    assert rows and all(row[1] == "R5-S2" and row[2] == "kept" for row in rows) and len(rows) == 10
    wrong = v3ast(tmp_path, "blueprints", "list", "--status", "e")
    assert wrong.returncode == 2 and "status 'e' matches several of" in wrong.stderr
    assert "Value error" not in wrong.stderr


def first_asked_answered_with(reply):
    """A demo model whose first answer to each prompt is `reply`."""
    asked: set[str] = set()

    def respond(body: dict):
        prompt = last_user_text(body)
        if prompt in asked:
            return demo_responder(body)
        asked.add(prompt)
        return reply

    return respond


def test_a_200_that_is_not_json_is_retried_and_said_on_stderr(v3ast, tmp_path):
    page = RawReply(b"<html><body><h1>502 Bad Gateway</h1></body></html>", content_type="text/html")
    with ScriptedModelServer(first_asked_answered_with(page)) as server:
        proposed = v3ast(tmp_path, "propose", "--cell", "R5-S2", "--base-url", server.base_url)
        reviewed = v3ast(tmp_path, "review", "--pending", "--base-url", server.base_url)
    for completed, done in ((proposed, "10 proposed"), (reviewed, "10 reviewed, 0 failed")):
        assert completed.returncode == 0, completed.stderr
        assert done in completed.stdout and "10 retried" in completed.stdout
        notices = completed.stderr.splitlines()[-10:]
        assert all("HTTP 200 but the body is not the API's JSON: '<html><body><h1>502 Bad Gateway" in line
                   and "retrying in" in line and "(attempt 2 of 5)" in line for line in notices), completed.stderr
        assert "Traceback" not in completed.stderr


def test_timeout_bounds_each_attempt_and_a_retry_is_said(v3ast, tmp_path, monkeypatch):
    with ScriptedModelServer(first_asked_answered_with(Hang(20))) as server:
        started = time.monotonic()
        proposed = v3ast(tmp_path, "propose", "--cell", "R5-S2", "--base-url", server.base_url, "--timeout", "0.5")
        first = next(line.split("] round 1: ")[1] for line in proposed.stdout.splitlines() if line.startswith("[1/"))
        monkeypatch.setenv("V3AST_STAGE1_TIMEOUT", "0.5")
        reviewed = v3ast(tmp_path, "review", first, "--base-url", server.base_url)
        elapsed = time.monotonic() - started
    assert proposed.returncode == 0 and reviewed.returncode == 0, proposed.stderr + reviewed.stderr
    assert proposed.stderr.count("request timed out after 0.5 s; retrying in") == 10
    assert reviewed.stderr.count("request timed out after 0.5 s; retrying in") == 1
    assert elapsed < 15, f"took {elapsed:.1f} s"
    monkeypatch.setenv("V3AST_STAGE1_TIMEOUT", "0")
    refused = v3ast(tmp_path, "review", first, "--base-url", server.base_url)
    assert refused.returncode == 1
    assert refused.stderr == "error: V3AST_STAGE1_TIMEOUT: Input should be greater than 0\n"
