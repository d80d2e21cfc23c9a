"""The harness's endpoint settings: the shared `ModelEndpoint`, written to batches and records as they always were."""

import json

import pytest
from typer.testing import CliRunner

from calibration.batch import BATCH_FILE, read_settings
from calibration.harnesses import MINI_SWE_AGENT, HarnessConfig, harness_version
from calibration.offline.policies import SCRIPTED_MODEL
from v3ast.cli import app, run

PAIR_ID = "invoice-timeout-diagnostics"
BEFORE_THE_SHARED_ENDPOINT = {
    "model_name": SCRIPTED_MODEL, "provider": "hosted_vllm", "base_url": None, "action_format": "toolcall",
    "request_timeout": 600.0, "model_attempts": 3, "overtime_reruns": 2, "model_kwargs": {},
    "name": MINI_SWE_AGENT, "version": harness_version(MINI_SWE_AGENT)}
"""A scripted calibration batch's harness settings as `batch.json` held them before the endpoint was shared."""


def old_batch(project, name: str, harness: dict) -> None:
    folder = project / "runs" / name
    folder.mkdir(parents=True)
    (folder / BATCH_FILE).write_text(json.dumps({
        "updated_at": "2026-11-30T10:00:00+00:00", "name": name, "purpose": "calibration", "runs": 1,
        "workers": 1, "scripted": True, "harness": harness}), encoding="utf-8")


def test_records_keep_their_field_names_and_never_the_key(monkeypatch):
    monkeypatch.setenv("V3AST_MODEL_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("V3AST_MODEL", "Qwen/Qwen3.5-4B")
    monkeypatch.setenv("V3AST_MODEL_API_KEY", "sk-endpoint-0123456789")
    config = HarnessConfig.configured(model=None, attempts=2)
    assert config.key() == "sk-endpoint-0123456789" and "sk-endpoint" not in json.dumps(config.public())
    assert config.public() == {"provider": "hosted_vllm", "model_name": "Qwen/Qwen3.5-4B",
                               "base_url": "http://127.0.0.1:8000/v1", "request_timeout": 600.0,
                               "model_attempts": 2, "model_kwargs": {}, "action_format": "toolcall",
                               "overtime_reruns": 2}
    assert config.litellm_name == "hosted_vllm/Qwen/Qwen3.5-4B"


def test_a_vllm_endpoint_never_gets_a_vendors_key(monkeypatch):
    monkeypatch.delenv("V3AST_MODEL_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-vendor-0123456789")
    assert HarnessConfig().key() == "EMPTY"
    assert HarnessConfig(provider="openai").key() == "sk-vendor-0123456789"


def test_a_batch_with_other_settings_is_refused_in_one_line(project, capsys, monkeypatch):
    monkeypatch.delenv("V3AST_DEBUG", raising=False)
    old_batch(project, "old", BEFORE_THE_SHARED_ENDPOINT | {"model_attempts": 5})
    with pytest.raises(SystemExit) as exited:
        run(app, ["calibration", "run", PAIR_ID, "--batch", "old"])
    err = capsys.readouterr().err
    assert exited.value.code == 1 and err.count("\n") == 1
    assert err.startswith("error: batch old was made with other settings ({'model_name': 'scripted-policy'")


@pytest.mark.docker
def test_a_batch_written_before_the_shared_endpoint_resumes(project, base_image):
    old_batch(project, "old", BEFORE_THE_SHARED_ENDPOINT)
    done = CliRunner().invoke(app, ["calibration", "run", PAIR_ID, "--batch", "old"])
    assert done.exit_code == 0, done.output
    assert "batch old: ran 2" in done.output
    assert read_settings(project / "runs", "old").harness == BEFORE_THE_SHARED_ENDPOINT
