"""`v3ast --version` and shell completion (typer's, over the lazily loaded sub-commands)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

V3AST = str(Path(sys.executable).parent / "v3ast")


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([V3AST, *args], env={**os.environ, **env}, capture_output=True, text=True, timeout=60)


def test_version():
    completed = run("--version")
    assert completed.returncode == 0 and completed.stdout == f"v3ast {version('v3ast')}\n"


def test_completion_names_lazy_sub_commands_and_their_options():
    commands = run(_V3AST_COMPLETE="complete_bash", COMP_WORDS="v3ast bl", COMP_CWORD="1")
    assert commands.stdout.split() == ["blueprints"]
    options = run(_V3AST_COMPLETE="complete_bash", COMP_WORDS="v3ast blueprints list --st", COMP_CWORD="3")
    assert options.stdout.split() == ["--status"]
    assert "_v3ast_completion" in run(_V3AST_COMPLETE="source_bash").stdout  # what `--show-completion` prints in bash


def complete(root: Path, words: str) -> list[str]:
    """What bash completion offers for the last of `words` (empty when they end with a space)."""
    return run(_V3AST_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(len(words.split(" ")) - 1),
               V3AST_ROOT=str(root)).stdout.split()


def test_completion_offers_pair_ids_blueprint_ids_statuses_and_bands(tmp_path):
    for pair in ("alpha-pair", "beta-pair"):
        (tmp_path / "generated_tasks" / pair).mkdir(parents=True)
        (tmp_path / "generated_tasks" / pair / "pair.yaml").touch()
    (tmp_path / "blueprints" / "R5-S2").mkdir(parents=True)
    (tmp_path / "blueprints" / "R5-S2" / "bp-one.yaml").touch()
    assert complete(tmp_path, "v3ast pairs diff ") == ["alpha-pair", "beta-pair"]
    assert complete(tmp_path, "v3ast pairs lint alpha-pair b") == ["beta-pair"]
    assert complete(tmp_path, "v3ast pairs render ") == complete(tmp_path, "v3ast blueprints show b") == ["bp-one"]
    assert complete(tmp_path, "v3ast blueprints list --status ") == [
        "proposed", "kept", "needs_review", "dropped", "accepted", "rejected", "implemented", "calibrated", "admitted"]
    assert complete(tmp_path, "v3ast blueprints list --band ") == ["kept", "needs_review", "dropped"]
    assert complete(tmp_path, "v3ast blueprints decide bp-one --status ") == ["accepted", "needs_review", "rejected"]
    assert complete(tmp_path / "elsewhere", "v3ast pairs diff ") == []
