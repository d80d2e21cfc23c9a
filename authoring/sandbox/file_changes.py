"""What the agent changed on disk, for a reader: the engine's diff of the frozen run, with a unified diff of each
changed text file against the side's image (read by the engine, never by a binary of the agent's container)."""

from __future__ import annotations

import difflib
from typing import Protocol

from authoring.sandbox.observations import Change

NOISE = ("/proc/", "/sys/", "/dev/", "/var/cache/", "/var/lib/apt/", "/var/log/", "/root/.cache/", "/tmp/v3ast")
NOISE_PARTS = ("/__pycache__/", "/.git/objects/", "/.git/logs/", "/node_modules/", "/.pytest_cache/")
MAX_DIFFED = 40
MAX_TEXT = 64 * 1024
MAX_LISTED = 400


class FrozenFiles(Protocol):
    changes: list[Change]

    def read_bytes(self, path: str) -> bytes | None: ...

    def image_bytes(self, path: str) -> bytes | None: ...


def noisy(path: str) -> bool:
    return path.startswith(NOISE) or any(part in f"{path}/" for part in NOISE_PARTS) or path.endswith(".pyc")


def leaves(changes: list[Change]) -> list[Change]:
    """The changes without the folders that only contain other changes (the engine lists every parent)."""
    paths = sorted(change.path for change in changes)
    parents = {path for path, following in zip(paths, paths[1:], strict=False) if following.startswith(f"{path}/")}
    return [change for change in changes if change.path not in parents]


def text_of(data: bytes | None) -> list[str] | None:
    if data is None or len(data) > MAX_TEXT or b"\0" in data:
        return None
    try:
        return data.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def unified(path: str, before: list[str], after: list[str]) -> str:
    return "".join(difflib.unified_diff(before, after, f"a{path}", f"b{path}"))


def file_changes(frozen: FrozenFiles, workdir: str) -> list[dict[str, str]]:
    """Each changed path (`kind`: added, changed, deleted), the work tree's first; a text file's `diff` for up to
    MAX_DIFFED of them; noise (caches, git objects, bytecode) left out."""
    changes = [change for change in leaves(frozen.changes) if not noisy(change.path)]
    changes.sort(key=lambda change: (not change.path.startswith(f"{workdir.rstrip('/')}/"), change.path))
    listed: list[dict[str, str]] = []
    for change in changes[:MAX_LISTED]:
        entry = {"path": change.path, "kind": change.kind}
        if sum("diff" in item for item in listed) < MAX_DIFFED:
            before = [] if change.kind == "added" else text_of(frozen.image_bytes(change.path))
            after = [] if change.kind == "deleted" else text_of(frozen.read_bytes(change.path))
            if before is not None and after is not None and (diff := unified(change.path, before, after)):
                entry["diff"] = diff
        listed.append(entry)
    return listed
