"""Moving a pair folder into and out of a build sandbox as a tar stream (no host mount)."""

from __future__ import annotations

import io
import posixpath
import shlex
import tarfile
from pathlib import Path

from authoring.errors import V3astError
from authoring.sandbox.session import Sandbox

SKIPPED_PARTS = {"__pycache__", ".pytest_cache"}
MAX_BYTES = 50 * 1024 * 1024


class TransferError(V3astError, RuntimeError):
    """The pair could not be copied out of the build sandbox."""


def copy_into(sandbox: Sandbox, folder: Path, container_parent: str) -> str:
    """Put `folder` into the container as `<container_parent>/<folder name>`, owned by root; returns that path."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        archive.add(folder, arcname=folder.name, filter=_as_root)
    sandbox.exec(f"mkdir -p {shlex.quote(container_parent)}")
    sandbox.agent.put_archive(container_parent, buffer.getvalue())
    return posixpath.join(container_parent, folder.name)


def _as_root(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    if SKIPPED_PARTS & set(Path(info.name).parts):
        return None
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def copy_out(sandbox: Sandbox, container_path: str, destination: Path) -> Path:
    """Extract the container's folder into `destination/<its name>` (regular files and folders only)."""
    stream, _ = sandbox.agent.get_archive(container_path)
    data = b"".join(stream)
    if len(data) > MAX_BYTES:
        raise TransferError(f"{container_path} is {len(data) // 1024 // 1024} MB "
                            f"(limit {MAX_BYTES // 1024 // 1024} MB)")
    destination.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = [m for m in archive.getmembers()
                   if (m.isfile() or m.isdir()) and not SKIPPED_PARTS & set(Path(m.name).parts)]
        archive.extractall(destination, members=members, filter="data")
    return destination / posixpath.basename(container_path.rstrip("/"))
