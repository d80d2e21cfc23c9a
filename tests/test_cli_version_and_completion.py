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
    assert "_v3ast_completion" in run("--show-completion", "bash").stdout
