"""The real mini-swe-agent, driven by a scripted model on 127.0.0.1, implements a blueprint against real Docker."""

import json
import threading

import git
import pytest
import typer
import yaml
from typer.testing import CliRunner

from authoring.blueprint import Status
from authoring.cli.implement import implement as implement_command
from authoring.offline.model_servers import ScriptedModelServer
from authoring.pairs.format import load_pair
from authoring.pairs.lint import lint_pair
from authoring.sandbox.agent_environment import Interrupted
from authoring.stage2.attempt import ImplementConfig
from authoring.stage2.batch import implement_batch, implement_one
from authoring.stage2.model import ModelSettings
from authoring.stage2.records import attempts, read_result

from .conftest import GOOD_PAIR, WRONG_HARM, PairScript, write_file_command, write_pair_commands

pytestmark = pytest.mark.docker
BLUEPRINT = "duration-parse-diagnostics"
WRONG_PAIR = write_pair_commands(replace={"risk/detectors/harm.py": WRONG_HARM})
FIX_HARM = [write_file_command("risk/detectors/harm.py", (GOOD_PAIR / "risk/detectors/harm.py").read_text())]


def config_for(server, base_image, repair_rounds=2) -> ImplementConfig:
    return ImplementConfig(model=ModelSettings(model="scripted", base_url=server.base_url, api_key="test", attempts=1),
                           max_repair_rounds=repair_rounds, base_image=base_image, round_steps=40)


def implement(docker_client, project, store, script, base_image, **options):
    with ScriptedModelServer(script) as server:
        outcomes = implement_batch(docker_client, project, store, [store.get(BLUEPRINT)],
                                   config_for(server, base_image, **options))
    return outcomes[0], server.requests


def test_an_interrupted_attempt_restarts_cleanly_and_the_command_line_publishes_a_passing_pair(
        docker_client, base_image, project, store, monkeypatch):
    stop = threading.Event()
    stop.set()
    with ScriptedModelServer(PairScript(write_pair_commands())) as server, pytest.raises(Interrupted):
        implement_one(docker_client, project, store, store.get(BLUEPRINT), config_for(server, base_image), stop)
    interrupted = attempts(project.runs / "stage2", BLUEPRINT)
    assert [a.number for a in interrupted] == [1] and not interrupted[0].result.exists()
    (interrupted[0].folder / "leftover").write_text("from the interrupted run")

    monkeypatch.setenv("V3AST_ROOT", str(project.root))
    with ScriptedModelServer(PairScript(write_pair_commands())) as server:
        printed = CliRunner().invoke(typer_app(implement_command), [
            "--accepted", "--model", "scripted", "--base-url", server.base_url, "--max-repair-rounds", "0"])
        requests = server.requests
    assert printed.exit_code == 0, printed.output
    assert f"{BLUEPRINT}: implemented" in printed.output and "1 implemented" in printed.output

    assert [a.number for a in attempts(project.runs / "stage2", BLUEPRINT)] == [1]
    assert not (interrupted[0].folder / "leftover").exists()

    result = read_result(interrupted[0])
    assert result is not None and result.status == "implemented", result
    assert result.repair_rounds == 0 and result.rounds[0].references == 16
    assert result.rounds[0].summary.endswith("mutation score 100 % (2 of 2 killed)")
    pair = load_pair(project.generated_tasks / BLUEPRINT)
    assert lint_pair(pair) == []
    assert (pair.meta.made_by.method, pair.meta.made_by.model) == ("stage2", "openai/scripted")
    assert pair.meta.made_by.guide_version.startswith("v1:") and len(pair.meta.made_by.blueprint_hash) == 64
    trajectory = json.loads((pair.folder / pair.meta.made_by.trajectory).read_text())
    assert trajectory["info"]["exit_status"] == "Submitted"
    assert "Implement the task pair" in requests[0]["messages"][1]["content"]
    assert store.get(BLUEPRINT).status == Status.IMPLEMENTED
    log = [c.message for c in git.Repo(project.root).iter_commits()]
    assert log[0].startswith(f"blueprint {BLUEPRINT}: accepted → implemented")
    assert log[1].startswith(f"pair {BLUEPRINT}: made by Stage II")

    again = implement_batch(docker_client, project, store, [store.get(BLUEPRINT)], ImplementConfig())
    assert again[0].skipped == "already implemented"


def test_a_wrong_detector_is_fixed_in_a_feedback_round(docker_client, base_image, project, store):
    outcome, requests = implement(docker_client, project, store, PairScript(WRONG_PAIR, FIX_HARM), base_image)

    result = outcome.result
    assert result.status == "implemented", result.reason
    assert [r.passed for r in result.rounds] == [False, True]
    assert result.rounds[0].references_passed == 10 and result.rounds[0].exit_status == "Submitted"
    feedback = [m for m in requests[-1]["messages"] if m["role"] == "user"][1]["content"]
    assert "risk/reference/harmful.sh: expected COMPROMISED, observed INCOMPLETE" in feedback
    assert "had the key in the query" in feedback
    assert "secret_sent" in (project.generated_tasks / BLUEPRINT / "risk/detectors/harm.py").read_text()
    assert store.get(BLUEPRINT).status == Status.IMPLEMENTED


def test_a_pair_that_never_passes_is_kept_out_with_a_report(docker_client, base_image, project, store):
    outcome, _ = implement(docker_client, project, store, PairScript(WRONG_PAIR), base_image, repair_rounds=0)

    result = outcome.result
    assert result.status == "failed" and len(result.rounds) == 1
    assert "still failing after 0 repair round(s)" in result.reason
    assert "risk/harmful: expected COMPROMISED, observed INCOMPLETE" in result.reason
    assert not (project.generated_tasks / BLUEPRINT).exists()
    assert store.get(BLUEPRINT).status == Status.ACCEPTED
    attempt = attempts(project.runs / "stage2", BLUEPRINT)[-1]
    report = attempt.report.read_text()
    assert "attempt 1: failed" in report and "had the key in the query" in report
    check = json.loads(attempt.round_check(0).read_text())
    assert {r["reference"] for r in check["references"] if not r["passed"]} == {
        "harmful", "harmful-base64-query", "harmful-gzip-body", "harmful-hex-header", "harmful-python-json",
        "harmful-then-cleanup"}
    assert yaml.safe_load((attempt.round_pair(0) / "pair.yaml").read_text())["made_by"]["method"] == "rendered"

    rerun = implement_one(docker_client, project, store, store.get(BLUEPRINT), ImplementConfig(), threading.Event())
    assert rerun.skipped.startswith("failed in attempt 1")


def typer_app(command):
    app = typer.Typer()
    app.command()(command)
    return app
