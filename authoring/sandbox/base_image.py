"""The base image every task and service image builds on: Debian bookworm with what agents need."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

import docker
from docker.errors import APIError, BuildError, ImageNotFound

from authoring.errors import BadInput, V3astError
from authoring.sandbox.daemon import apt_install
from authoring.settings import BaseSource, settings

BASE_IMAGE = "v3ast-base:bookworm-1"
ROOTFS_IMAGE = "v3ast-rootfs:bookworm-1"
PULL_IMAGE = "debian:bookworm-slim"
PULL_TIMEOUT_SECONDS = 15
SOURCES = get_args(BaseSource)
PACKAGES = (
    "bash coreutils python3 python3-pip python3-venv git curl ca-certificates procps sqlite3 iproute2"
).split()
DEFAULT_MIRROR = "http://deb.debian.org/debian"
SUITE = "bookworm"


def configured_mirror(sources: Path = Path("/etc/apt")) -> str:
    """The Debian mirror this host's apt uses for the base suite ($V3AST_DEBIAN_MIRROR overrides it)."""
    if mirror := settings().debian_mirror:
        return mirror
    files = sorted(sources.glob("sources.list.d/*.sources")) + [sources / "sources.list"]
    files += sorted(sources.glob("sources.list.d/*.list"))
    for path in files:
        text = path.read_text(errors="replace") if path.is_file() else ""
        for stanza in text.split("\n\n"):
            fields = dict(line.split(":", 1) for line in stanza.splitlines()
                          if ":" in line and not line.startswith("#"))
            if SUITE in fields.get("Suites", "").split() and fields.get("URIs", "").strip():
                return fields["URIs"].split()[0]
        for line in text.splitlines():
            words = line.split()
            if len(words) >= 3 and words[0] == "deb" and words[2] == SUITE:
                return words[1]
    return DEFAULT_MIRROR

DOCKERFILE = f"""\
ARG ROOTFS
FROM ${{ROOTFS}}
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 PIP_NO_INPUT=1 PIP_BREAK_SYSTEM_PACKAGES=1 \\
    PIP_DISABLE_PIP_VERSION_CHECK=1 GIT_TERMINAL_PROMPT=0
RUN if ! command -v python3 >/dev/null || ! command -v git >/dev/null; then \\
      apt-get update -q && apt-get install -y -q --no-install-recommends {" ".join(PACKAGES)} \\
      && rm -rf /var/lib/apt/lists/*; fi \\
 && printf '[global]\\nbreak-system-packages = true\\n' > /etc/pip.conf \\
 && git config --system user.name "Dana Whitfield" \\
 && git config --system user.email "dana.whitfield@northwind-dev.io" \\
 && git config --system init.defaultBranch main \\
 && mkdir -p /workspace
WORKDIR /workspace
CMD ["bash"]
"""

Method = Literal["existing", "pull", "debootstrap"]


def base_recipe() -> str:
    """What the base image is made of, in words that are the same on every machine (its image id is not: a
    debootstrap build differs in timestamps from one machine to the next)."""
    return "\n".join([BASE_IMAGE, SUITE, " ".join(PACKAGES), DOCKERFILE])


@dataclass
class BaseImageReport:
    tag: str
    method: Method
    seconds: float


class BaseImageError(V3astError, RuntimeError):
    """The base image could not be built; the message says why in one line."""


def ensure_base_image(client: docker.DockerClient, source: str | None = None) -> BaseImageReport:
    """Build BASE_IMAGE unless it exists; source is auto|pull|debootstrap (default: $V3AST_BASE_SOURCE or auto)."""
    source = source or settings().base_source
    if source not in SOURCES:
        raise BadInput(f"unknown base image source {source!r} (available: {', '.join(SOURCES)})")
    started = time.monotonic()
    if _image_exists(client, BASE_IMAGE):
        return BaseImageReport(BASE_IMAGE, "existing", time.monotonic() - started)
    method: Method = "debootstrap"
    if source in ("auto", "pull") and _try_pull(client):
        method = "pull"
    elif source == "pull":
        raise BaseImageError(f"could not pull {PULL_IMAGE} within {PULL_TIMEOUT_SECONDS} s; "
                             "try V3AST_BASE_SOURCE=debootstrap")
    else:
        _debootstrap_rootfs(client)
    rootfs = PULL_IMAGE if method == "pull" else ROOTFS_IMAGE
    _build_on_rootfs(client, rootfs, network_mode="default" if method == "pull" else "none")
    return BaseImageReport(BASE_IMAGE, method, time.monotonic() - started)


def _image_exists(client: docker.DockerClient, tag: str) -> bool:
    try:
        client.images.get(tag)
        return True
    except ImageNotFound:
        return False


def _try_pull(client: docker.DockerClient) -> bool:
    """A quick no where no registry answers: the API client's read timeout bounds every stalled step."""
    if _image_exists(client, PULL_IMAGE):
        return True
    saved_timeout, client.api.timeout = client.api.timeout, PULL_TIMEOUT_SECONDS
    try:
        repository, tag = PULL_IMAGE.split(":")
        for event in client.api.pull(repository, tag=tag, stream=True, decode=True):
            if "error" in event:
                return False
    except Exception:  # noqa: BLE001 - any failure of the pull means: use debootstrap
        return False
    finally:
        client.api.timeout = saved_timeout
    return _image_exists(client, PULL_IMAGE)


def _debootstrap_rootfs(client: docker.DockerClient) -> None:
    if os.geteuid() != 0:
        raise BaseImageError("building the base image with debootstrap needs root; "
                             "rerun as root or set V3AST_BASE_SOURCE=pull")
    if shutil.which("debootstrap") is None:
        if not Path("/etc/debian_version").exists():
            raise BaseImageError("debootstrap is missing and this is not a Debian host; install debootstrap")
        apt_install(["debootstrap"])
    with tempfile.TemporaryDirectory(prefix="v3ast-rootfs-") as tmp:
        root = Path(tmp) / "root"
        command = [
            "debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}",
            SUITE, str(root), configured_mirror(),
        ]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            tail = " | ".join((result.stdout + result.stderr).strip().splitlines()[-3:])
            raise BaseImageError(f"debootstrap failed (exit {result.returncode}): {tail}")
        for leftover in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for item in (root / leftover).glob("*"):
                if item.is_file():
                    item.unlink()
        tarball = Path(tmp) / "rootfs.tar"
        subprocess.run(["tar", "--numeric-owner", "-C", str(root), "-cf", str(tarball), "."], check=True)
        repository, tag = ROOTFS_IMAGE.split(":")
        client.api.import_image_from_file(str(tarball), repository=repository, tag=tag)


def _build_on_rootfs(client: docker.DockerClient, rootfs: str, network_mode: str) -> None:
    with tempfile.TemporaryDirectory(prefix="v3ast-base-") as tmp:
        Path(tmp, "Dockerfile").write_text(DOCKERFILE)
        try:
            client.images.build(
                path=tmp, tag=BASE_IMAGE, buildargs={"ROOTFS": rootfs}, network_mode=network_mode, rm=True
            )
        except (BuildError, APIError) as error:
            raise BaseImageError(f"building {BASE_IMAGE} on {rootfs} failed: {str(error).splitlines()[0]}") from None
