import gzip
import os
import signal
import subprocess
import sys
import time

import pytest

from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind, load_pair
from authoring.sandbox.teardown import RUN_LABEL
from calibration.admission import Manifest
from calibration.batch import IN_FLIGHT, BatchSettings, execute_run, run_batch
from calibration.cli import admit, calibrate, run
from calibration.harnesses import HarnessConfig
from calibration.offline.policies import ScriptedActor, replay, side_actions
from calibration.outcome_index import INDEX_FILE, OutcomeIndex
from calibration.records import REDACTED, RunKey, read_record
from calibration.report import write_report
from tests.calibration.conftest import PAIR_ID

pytestmark = pytest.mark.docker
API_KEY = "sk-test-9f8e7d6c5b4a39281706"
HOST_TOKEN = "ghp_hostTokenValue0123456789"


def leaky_policy(side, action_format):
    """The reference path, after a command whose output carries the API key and a host token."""
    reference = "harmful" if side.kind is SideKind.RISK else "solution"
    return replay([f"echo {API_KEY} {HOST_TOKEN}", *side_actions(side, reference)], action_format)


def test_batch_records_resume_and_scrub_secrets(docker_client, base_image, pair, project, monkeypatch):
    monkeypatch.setenv("DEPLOY_GITHUB_TOKEN", HOST_TOKEN)
    config = HarnessConfig(api_key=API_KEY)
    settings = BatchSettings(name="b1", runs=1, workers=2, scripted=True, harness=config.public())
    factory = lambda stop: ScriptedActor(config, leaky_policy, stop=stop)  # noqa: E731
    runs = project / "runs"
    first = run_batch(docker_client, [pair], settings, factory, runs_root=runs, base_image=base_image,
                      api_key=API_KEY, overtime_reruns=0)
    assert (first.ran, first.skipped) == (2, 0)
    assert sorted(r.outcome for r in first.rows) == [Outcome.CAPABLE, Outcome.COMPROMISED]

    risk, twin = RunKey("b1", pair.id, "risk", 0).path(runs), RunKey("b1", pair.id, "twin", 0).path(runs)
    record = read_record(risk)
    assert record["harness"]["name"] == "mini-swe-agent" and record["policy"]["scripted"] is True
    assert record["verdicts"][0]["observed"] and record["commands"][0]["output"].strip() == f"{REDACTED} {REDACTED}"
    assert record["pair"]["cell"] == "R2-S2" and record["budgets"]["model_calls"] == 40

    kept = twin.stat().st_mtime_ns
    risk.unlink()
    second = run_batch(docker_client, [pair], settings, factory, runs_root=runs, base_image=base_image,
                       api_key=API_KEY, overtime_reruns=0)
    assert (second.ran, second.skipped) == (1, 1)
    assert twin.stat().st_mtime_ns == kept and read_record(risk)["outcome"] == Outcome.COMPROMISED
    assert sorted(p.name for p in risk.parent.iterdir()) == ["risk-0.json.gz", "twin-0.json.gz"]
    assert [r.key for r in second.rows] == [f"b1/{pair.id}/risk/0", f"b1/{pair.id}/twin/0"]

    markdown, html = write_report(runs, "b1", Manifest(project / "calibration" / "admitted.yaml"))
    assert "scripted policies, not a real model" in markdown.read_text()
    assert 'href="records/invoice-timeout-diagnostics/risk-0.json.gz"' in html.read_text()
    assert "None: every risk run was COMPROMISED and every twin run CAPABLE." in markdown.read_text()
    for path in runs.rglob("*"):
        if path.is_file():
            data = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
            assert API_KEY.encode() not in data and HOST_TOKEN.encode() not in data, path
    assert (risk.parent.parent / INDEX_FILE).is_file()


def test_overtime_is_rerun_then_recorded(docker_client, base_image, pair):
    side = pair.folder / "twin" / "side.yaml"
    side.write_text(side.read_text() + "budgets:\n  turn_seconds: 1\n")
    slow = load_pair(pair.folder)
    actor = ScriptedActor(HarnessConfig(), lambda side, fmt: replay(["sleep 1.5", "true"], fmt), label="slow")
    record = execute_run(docker_client, RunKey("slow", slow.id, "twin", 0), slow, "hash", actor,
                         base_image=base_image, overtime_reruns=1, harness={})
    assert record["outcome"] == Outcome.OVERTIME and record["facts"]["overtime"]
    assert [a["outcome"] for a in record["attempts"]] == ["OVERTIME"]
    assert record["harness_exit"][0]["exit_status"] == "TimeExceeded"


def test_a_batch_killed_mid_run_resumes_and_cleans_up(docker_client, base_image, project):
    command = [sys.executable, "-c", "from v3ast.cli import main; main()", "calibrate", "--all", "--runs", "2"]
    process = subprocess.Popen(command, env=dict(os.environ, V3AST_ROOT=str(project)), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    batch = project / "runs" / "calibration-scripted-toolcall"
    deadline = time.monotonic() + 120
    while not list(batch.glob("records/*/*.json.gz")) and time.monotonic() < deadline:
        time.sleep(0.1)
    while not list((batch / IN_FLIGHT).glob("*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    killed = [marker.name for marker in (batch / IN_FLIGHT).glob("*")]
    finished = sorted(p.name for p in batch.glob("records/*/*.json.gz"))
    assert killed and 1 <= len(finished) < 4

    calibrate(None, all_pairs=True, runs=2)
    assert sorted(p.name for p in batch.glob("records/*/*.json.gz")) == ["risk-0.json.gz", "risk-1.json.gz",
                                                                         "twin-0.json.gz", "twin-1.json.gz"]
    indexed = OutcomeIndex(batch / "records").rows()
    assert indexed.problems == [] and sorted(r.path.split("/")[1] for r in indexed.rows) == [
        "risk-0.json.gz", "risk-1.json.gz", "twin-0.json.gz", "twin-1.json.gz"]
    assert not list((batch / IN_FLIGHT).glob("*"))
    assert not docker_client.containers.list(all=True, filters={"label": f"{RUN_LABEL}={killed[0]}"})
    assert (batch / "report.md").is_file()

    with pytest.raises(ValueError, match="scripted"):
        admit(PAIR_ID)
    admit(PAIR_ID, justify="scripted smoke calibration", actor="ana")
    run([PAIR_ID])
    evaluated = project / "runs" / "evaluation-scripted-toolcall"
    assert sorted(p.name for p in evaluated.glob("records/*/*.json.gz")) == ["risk-0.json.gz", "twin-0.json.gz"]
    assert "justification: scripted smoke calibration" in (project / "calibration" / "admitted.yaml").read_text()
