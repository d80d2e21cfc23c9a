"""An engine lost mid-batch is an infrastructure error, never a verdict: the batch stops scheduling, says in one
line what was done, what is left and how to resume, and exits non-zero; the same command later finishes the rest.
The lost engine is a proxy to the real one that stops answering (the shared engine is never stopped)."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from authoring.sandbox.teardown import OWNER_LABEL, RUN_LABEL
from calibration.records import read_record
from tests.executor.engine_proxy import EngineProxy

pytestmark = pytest.mark.docker
SHIPPED = Path(__file__).resolve().parents[2] / "generated_tasks"
PAIR = "purge-qa-orders"


def test_a_batch_that_loses_its_engine_stops_with_a_resume_line_and_the_rerun_finishes(docker_client, base_image,
                                                                                         tmp_path):
    shutil.copytree(SHIPPED / PAIR, tmp_path / "generated_tasks" / PAIR)
    command = [sys.executable, "-c", "from v3ast.cli import main; main()", "calibrate", "--all", "--runs", "1",
               "--workers", "1"]
    env = {k: v for k, v in os.environ.items() if k != "DOCKER_HOST"} | {"V3AST_ROOT": str(tmp_path)}
    proxy = EngineProxy(tmp_path / "engine.sock")
    records = tmp_path / "runs" / "calibration-scripted-toolcall" / "records" / PAIR
    first = subprocess.Popen(command, env=env | {"DOCKER_HOST": proxy.url}, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 150
    while not (records / "risk-0.json.gz").exists() and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.05)
    proxy.lose()
    stdout, stderr = first.communicate(timeout=120)
    output = stdout + stderr
    assert first.returncode == 1, output
    assert "Traceback" not in output
    [line] = [line for line in stderr.splitlines() if line.startswith("error:")] or [output]
    assert "stopped short: 1 of 2 run(s) finished, 1 left after an infrastructure error (EngineLost" in line, line
    assert line.endswith("resume with: v3ast calibrate --all --runs 1 --workers 1"), line
    assert read_record(records / "risk-0.json.gz")["finished"]
    if (records / "twin-0.json.gz").exists():
        twin = read_record(records / "twin-0.json.gz")
        assert not twin["finished"] and twin["infrastructure_error"].startswith("EngineLost: "), twin

    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert "kept 1 finished run(s)" in rerun.stdout
    finished = {path.name: read_record(path) for path in records.glob("*.json.gz")}
    assert {name: r["outcome"] for name, r in finished.items()} == {"risk-0.json.gz": "COMPROMISED",
                                                                      "twin-0.json.gz": "CAPABLE"}
    assert all(r["finished"] and "infrastructure_error" not in r for r in finished.values())
    left = [c.name for c in docker_client.containers.list(all=True, sparse=True, filters={"label": RUN_LABEL})
            if (c.attrs.get("Labels") or {}).get(OWNER_LABEL, "").endswith(f":{first.pid}")]
    assert left == []


def test_validation_that_loses_its_engine_stops_in_one_line_instead_of_failing_every_path(docker_client, base_image,
                                                                                           tmp_path):
    command = [sys.executable, "-c", "from v3ast.cli import main; main()", "validate", PAIR, "--workers", "1"]
    env = {k: v for k, v in os.environ.items() if k != "DOCKER_HOST"} | {"V3AST_ROOT": str(SHIPPED.parent)}
    proxy = EngineProxy(tmp_path / "engine.sock")
    run = subprocess.Popen(command, env=env | {"DOCKER_HOST": proxy.url}, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 150
    progress = []
    while not progress and time.monotonic() < deadline and run.poll() is None:
        progress = [line for line in (run.stderr.readline(),) if line.startswith("[")]
    proxy.lose()
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 1, stdout + stderr
    assert "Traceback" not in stdout + stderr
    [line] = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert "validation stopped short:" in line and "(the Docker engine stopped answering" in line, line
    assert line.endswith(f"go on with v3ast validate {PAIR} --workers 1 --changed"), line
    assert stderr.count("FAIL") <= 1, stderr  # the run the engine was lost in, not every path after it


def test_a_matrix_that_loses_its_engine_stops_with_a_resume_line(docker_client, base_image, tmp_path):
    from authoring.offline.model_servers import ScriptedModelServer
    from authoring.pairs.format import load_pair
    from tests.calibration.test_matrix_run import (
        admitted_project,
        command,
        environment,
        record_files,
        reference_model,
    )

    root = admitted_project(tmp_path / "project")
    pair = load_pair(root / "generated_tasks" / PAIR)
    proxy = EngineProxy(tmp_path / "engine.sock")
    with ScriptedModelServer(reference_model(pair), wire="anthropic", streaming=True) as alpha:
        matrix = root / "matrix.yaml"
        matrix.write_text(f'name: m\nruns: 1\nmodels:\n  - {{name: alpha, endpoint: "{alpha.base_url}/v1", '
                          "provider: anthropic, wire: anthropic}\nharnesses: [mini-swe-agent]\n")
        run = command("matrix", "run", str(matrix), "--admitted", "--workers", "1")
        env = {k: v for k, v in environment(root).items() if k != "DOCKER_HOST"}
        first = subprocess.Popen(run, cwd=root, env=env | {"DOCKER_HOST": proxy.url}, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 150
        while not record_files(root / "runs") and time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.05)
        proxy.lose()
        stdout, stderr = first.communicate(timeout=120)
    assert first.returncode == 1, stdout + stderr
    assert "Traceback" not in stdout + stderr
    [line] = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert "matrix stopped short: 1 run(s) left after an infrastructure error (EngineLost" in line, line
    assert line.endswith(f"resume with: v3ast matrix run {matrix} --admitted --workers 1"), line
