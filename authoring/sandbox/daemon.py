"""Reach the Docker engine, and with `fix` install and start it on a Debian host."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import docker
import requests
from docker.errors import DockerException

from authoring.errors import V3astError

FIX_HINT = "run `v3ast doctor --fix` (as root on Debian) to install and start it"
DOCKERD_LOG = Path("/var/log/v3ast-dockerd.log")
DAEMON_START_SECONDS = 60.0
API_TIMEOUT_SECONDS = 600


class DockerUnavailable(V3astError, RuntimeError):
    """The Docker engine cannot be reached; the message says how to fix it."""


def connect(timeout: float = 10.0) -> docker.DockerClient:
    """A client whose engine answered a ping within `timeout`; later calls (builds, long execs) may take longer."""
    try:
        client = docker.from_env(timeout=int(max(1, timeout)))
        client.ping()
    except (DockerException, requests.RequestException, OSError) as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise DockerUnavailable(f"Docker engine not reachable ({reason[:200]}); {FIX_HINT}") from None
    client.api.timeout = API_TIMEOUT_SECONDS
    return client


def ensure_daemon(fix: bool) -> str:
    """Return a one-line status; raise DockerUnavailable when the engine is missing and cannot be fixed."""
    try:
        client = connect(timeout=5)
        return f"Docker engine answers (version {client.version().get('Version', '?')})"
    except DockerUnavailable:
        if not fix:
            raise
    _require_root_on_debian()
    installed = ""
    if shutil.which("dockerd") is None:
        try:
            apt_install(["docker.io"])
        except RuntimeError as error:
            raise DockerUnavailable(str(error)) from None
        installed = "installed docker.io, "
    pid = _start_dockerd()
    client = _wait_for_engine(DAEMON_START_SECONDS)
    version = client.version().get("Version", "?")
    return f"Docker engine fixed: {installed}started dockerd (pid {pid}, version {version}, log {DOCKERD_LOG})"


def _require_root_on_debian() -> None:
    if os.geteuid() != 0:
        raise DockerUnavailable("cannot start Docker: not root; "
                                "rerun `v3ast doctor --fix` as root or start Docker yourself")
    if not Path("/etc/debian_version").exists():
        raise DockerUnavailable("cannot install Docker automatically: not a Debian host; "
                                "install and start Docker yourself")


def apt_install(packages: list[str]) -> None:
    """Install Debian packages as root; raise RuntimeError with apt's last lines on failure."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-q"],
                    ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]):
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            tail = " | ".join(result.stderr.strip().splitlines()[-2:])
            raise RuntimeError(f"`{' '.join(command)}` failed (exit {result.returncode}): {tail}")


def _start_dockerd() -> int:
    dockerd = shutil.which("dockerd")
    if dockerd is None:
        raise DockerUnavailable("dockerd not found after installing docker.io; check apt output")
    log = DOCKERD_LOG.open("ab")
    process = subprocess.Popen(
        [dockerd], stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    return process.pid


def _wait_for_engine(seconds: float) -> docker.DockerClient:
    deadline = time.monotonic() + seconds
    while True:
        try:
            return connect(timeout=2)
        except DockerUnavailable:
            if time.monotonic() > deadline:
                raise DockerUnavailable(
                    f"dockerd did not answer within {seconds:.0f} s; see {DOCKERD_LOG}"
                ) from None
            time.sleep(0.5)
