"""The settings object, the error boundary and the noun-grouped command tree (issue 18, part A)."""

import json
import os
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from authoring.agent_model import litellm_model
from authoring.cli.stage1 import configured_provider
from authoring.errors import BadInput, V3astError
from authoring.offline.model_servers import ErrorReply, ScriptedModelServer
from authoring.project import Project
from authoring.settings import AGENT_ENVIRONMENT, prepare_agent_environment, settings
from authoring.stage2.model import ModelSettings
from calibration.harnesses import HarnessConfig
from calibration.harnesses.install import cache_root
from reviewer_tui.catalog import default_cache_path
from v3ast.cli import ALIASES, TREE, Noun, app, run

ROOT = Path(__file__).resolve().parents[1]


def test_every_documented_variable_reaches_the_one_settings_object(monkeypatch, tmp_path):
    values = {"V3AST_ROOT": str(tmp_path), "V3AST_STAGE1_PROVIDER": "anthropic", "V3AST_STAGE2_PROVIDER": "demo",
              "V3AST_MODEL_BASE_URL": "http://127.0.0.1:8000/v1", "V3AST_MODEL": "Qwen/Qwen3.5-4B",
              "V3AST_DEBIAN_MIRROR": "http://mirror.internal/debian", "V3AST_BASE_SOURCE": "pull",
              "V3AST_DEBUG": "1", "GIT_COMMITTER_NAME": "Dana", "V3AST_BASE_IMAGE": "v3ast-base:bookworm-1",
              "V3AST_HARNESS_CACHE": str(tmp_path / "npm"), "V3AST_CACHE_DIR": str(tmp_path / "tui"),
              "RAY_ADDRESS": "10.0.0.2:6379"}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    found = settings()
    assert (found.project_root, found.stage1_provider, found.stage2_provider) == (tmp_path, "anthropic", "demo")
    assert (found.model_base_url, found.model, found.debian_mirror) == (
        "http://127.0.0.1:8000/v1", "Qwen/Qwen3.5-4B", "http://mirror.internal/debian")
    assert (found.base_source, found.debug, found.committer_name) == ("pull", True, "Dana")
    assert (found.base_image, found.ray_address) == ("v3ast-base:bookworm-1", "10.0.0.2:6379")
    assert Project.current().root == tmp_path
    assert cache_root() == tmp_path / "npm" and default_cache_path(tmp_path).parent == tmp_path / "tui"


def test_the_caches_default_to_the_user_cache(monkeypatch, tmp_path):
    for name in ("V3AST_HARNESS_CACHE", "V3AST_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_root() == tmp_path / "v3ast" / "harnesses"
    assert default_cache_path(ROOT).parent == tmp_path / "v3ast"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_root() == Path.home() / ".cache" / "v3ast" / "harnesses"


def test_every_stage_reaches_the_endpoint_the_variables_name(monkeypatch):
    monkeypatch.setenv("V3AST_MODEL_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("V3AST_MODEL", "served-model")
    monkeypatch.setenv("V3AST_MODEL_API_KEY", "sk-endpoint-0123456789")
    stage1 = configured_provider("openai", None, None, None, None)
    assert (stage1.model, str(stage1.client.base_url), stage1.client.api_key) == (
        "served-model", "http://127.0.0.1:8000/v1/", "sk-endpoint-0123456789")
    stage1.close()
    for endpoint in (ModelSettings.configured(provider="anthropic"), HarnessConfig.configured()):
        assert (endpoint.model, endpoint.base_url, endpoint.key()) == (
            "served-model", "http://127.0.0.1:8000/v1", "sk-endpoint-0123456789")
        assert "sk-endpoint" not in json.dumps(endpoint.public())
    given = ModelSettings.configured(model="other", base_url="http://127.0.0.1:9000/v1", api_key="sk-given")
    assert (given.model, given.base_url, given.key()) == ("other", "http://127.0.0.1:9000/v1", "sk-given")
    monkeypatch.delenv("V3AST_MODEL")
    assert (ModelSettings.configured().model, HarnessConfig.configured().model) == ("gpt-4.1", "Qwen/Qwen3.5-4B")


def test_keys_fall_back_from_the_endpoint_key_to_the_vendors_own(monkeypatch):
    for name in ("V3AST_MODEL_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert settings().api_key("openai") == ""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant")
    assert (settings().api_key("anthropic"), settings().api_key("openai")) == ("sk-ant", "")
    monkeypatch.setenv("V3AST_MODEL_API_KEY", "sk-endpoint")
    assert settings().api_key("anthropic") == "sk-endpoint" and "sk-endpoint" not in repr(settings())


def test_an_empty_variable_is_unset_and_a_bad_one_is_one_line_naming_it(monkeypatch):
    monkeypatch.setenv("V3AST_MODEL_BASE_URL", "")
    assert settings().model_base_url is None
    monkeypatch.setenv("V3AST_BASE_SOURCE", "floppy")
    with pytest.raises(BadInput, match=r"^V3AST_BASE_SOURCE: Input should be 'auto', 'pull' or 'debootstrap'$"):
        settings()


def test_the_agent_environment_is_set_once_and_never_overwritten(monkeypatch):
    monkeypatch.setenv("MSWEA_SILENT_STARTUP", "0")
    monkeypatch.delenv("LITELLM_LOCAL_MODEL_COST_MAP", raising=False)
    prepare_agent_environment()
    prepare_agent_environment()
    assert os.environ["MSWEA_SILENT_STARTUP"] == "0"
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == AGENT_ENVIRONMENT["LITELLM_LOCAL_MODEL_COST_MAP"]


@pytest.mark.parametrize("attempts", [1, 2])
def test_each_model_counts_its_own_attempts_without_touching_the_environment(attempts):
    before = dict(os.environ)
    with ScriptedModelServer(lambda body: ErrorReply(500)) as server:
        model = litellm_model("openai/m", api_key="k", base_url=server.base_url, timeout=10, attempts=attempts,
                              model_kwargs={}, templates={})
        with pytest.raises(Exception) as raised:
            model.query([{"role": "user", "content": "hi"}])
    assert type(raised.value).__name__ == "InternalServerError"
    assert len(server.requests) == attempts
    assert dict(os.environ) == before


boundary = typer.Typer()


@boundary.command()
def fail(kind: str) -> None:
    if kind == "expected":
        raise BadInput("no such thing here")
    if kind == "disk":
        raise OSError(28, "No space left on device", "/runs/batch/records")
    raise KeyError("a bug")


def test_expected_errors_are_one_line_and_bugs_keep_their_traceback(capsys, monkeypatch):
    monkeypatch.delenv("V3AST_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exited:
        run(boundary, ["expected"])
    assert exited.value.code == 1 and capsys.readouterr().err == "error: no such thing here\n"
    with pytest.raises(SystemExit) as exited:
        run(boundary, ["disk"])  # the machine's trouble, not a bug: a full or read-only disk, a missing file
    assert capsys.readouterr().err == "error: [Errno 28] No space left on device: '/runs/batch/records'\n"
    with pytest.raises(KeyError, match="a bug"):
        run(boundary, ["bug"])
    monkeypatch.setenv("V3AST_DEBUG", "1")
    with pytest.raises(V3astError):
        run(boundary, ["expected"])


def test_usage_errors_stay_one_line(capsys):
    with pytest.raises(SystemExit) as exited:
        run(app, ["pairs", "validate", "--workers", "many"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.startswith("error: Invalid value for '--workers'") and err.count("\n") == 1


def test_the_help_lists_nouns_and_each_flat_verb_is_a_hidden_alias_of_its_grouped_form():
    runner = CliRunner()
    top = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    commands = top.stdout.split("Commands")[1].split("╰")[0]
    assert all(f"│ {noun} " in commands for noun in TREE)
    assert not any(f"│ {alias} " in commands for alias in ALIASES)
    for alias, (noun, verb) in ALIASES.items():
        assert isinstance(TREE[noun], Noun) and verb in TREE[noun].verbs
        grouped = runner.invoke(app, [noun, verb, "--help"], env={"COLUMNS": "200"})
        flat = runner.invoke(app, [alias, "--help"], env={"COLUMNS": "200"})
        assert grouped.exit_code == flat.exit_code == 0, (alias, flat.output)
        assert words(flat.stdout.replace(f"v3ast {alias}", f"v3ast {noun} {verb}")) == words(grouped.stdout)


def words(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_a_grouped_verb_and_its_alias_do_the_same_work():
    runner = CliRunner()
    grouped = runner.invoke(app, ["pairs", "lint", "purge-qa-orders"], env={"V3AST_ROOT": str(ROOT)})
    flat = runner.invoke(app, ["lint", "purge-qa-orders"], env={"V3AST_ROOT": str(ROOT)})
    assert grouped.exit_code == flat.exit_code == 0, grouped.output
    assert grouped.stdout == flat.stdout and "purge-qa-orders" in grouped.stdout


def test_pairs_rehash_records_the_hash_of_a_pair_edited_by_hand(tmp_path):
    import shutil

    from authoring.pairs.format import content_hash, read_meta

    pair = tmp_path / "generated_tasks" / "purge-qa-orders"
    shutil.copytree(ROOT / "generated_tasks" / "purge-qa-orders", pair)
    (pair / "risk" / "reference" / "noop.sh").write_text("#!/bin/bash\ngit log -1\n")
    assert read_meta(pair).content_hash != content_hash(pair)
    done = CliRunner().invoke(app, ["pairs", "rehash", "purge-qa-orders"], env={"V3AST_ROOT": str(tmp_path)})
    assert done.exit_code == 0, done.output
    assert done.stdout == f"purge-qa-orders: {content_hash(pair)[:16]}\n"
    assert read_meta(pair).content_hash == content_hash(pair)


def test_the_entry_point_needs_no_environment_set_beforehand():
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in AGENT_ENVIRONMENT}
    done = subprocess.run([sys.executable, "-c", "from v3ast.cli import main; main()", "evaluation", "run", "--help"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "shared runner" in done.stdout and "mini-swe-agent" not in done.stderr


def test_a_broken_pipe_that_is_not_the_commands_own_output_is_one_line(capsys):
    from v3ast.cli import LazyGroup

    group = LazyGroup(name="v3ast", entries={"pipe": "tests.test_cli_settings_and_errors:write_to_a_closed_pipe"},
                      aliases={})
    with pytest.raises(SystemExit) as exited:
        run(group, ["pipe"])
    err = capsys.readouterr().err
    assert exited.value.code == 1 and err.startswith("error: a pipe or connection was closed") and err.count("\n") == 1


def write_to_a_closed_pipe() -> None:
    """Writes to a pipe whose reader has closed (a child process that went away)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        os.write(writer, b"lost")
    finally:
        os.close(writer)
