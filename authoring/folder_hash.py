"""One way of hashing a folder's files: pair content hashes, image context digests and side image tags."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path, PurePath


def folder_hash(
    folder: Path,
    *,
    leading: bytes = b"",
    trailing: bytes = b"",
    file_modes: bool = False,
    skip: Callable[[PurePath], bool] = lambda relative: False,
) -> str:
    """sha256 (hex) over `leading`, then each file below `folder` in path order — its relative POSIX path,
    its permission bits in octal when `file_modes`, and its bytes, each ended by a NUL — then `trailing`.
    Files whose relative path `skip` accepts are left out."""
    folder = Path(folder)
    digest = hashlib.sha256(leading)
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder)
        if skip(relative):
            continue
        digest.update(relative.as_posix().encode() + b"\0")
        if file_modes:
            digest.update(f"{path.stat().st_mode & 0o777:o}\0".encode())
        digest.update(path.read_bytes() + b"\0")
    digest.update(trailing)
    return digest.hexdigest()
