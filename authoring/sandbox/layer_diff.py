"""A container's filesystem changes read from its overlay upper layer on this host, the way the engine's own
native overlay diff reads them: one walk of what the container wrote instead of a comparison of two whole trees
(which is what `docker diff` does on engines that fall back to the naive diff, ~1 s per run).

Used only when the engine is local, uses overlay2 and its layer folders are readable; otherwise the caller asks
the engine. Nothing is followed: every path is looked at with `lstat`, so links the agent made cannot lead the
walk out of its layer.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from docker.models.containers import Container

from authoring.sandbox.containers import engine_on_this_host

ADDED, CHANGED, DELETED = "added", "changed", "deleted"
OPAQUE_XATTR = "trusted.overlay.opaque"


def overlay_layers(container: Container) -> tuple[Path, list[Path]] | None:
    """The container's upper folder and its lower folders (top first), when this host can read them."""
    if not engine_on_this_host(container):
        return None
    container.reload()
    driver = container.attrs.get("GraphDriver") or {}
    data = driver.get("Data") or {}
    if driver.get("Name") != "overlay2" or not data.get("UpperDir") or not data.get("LowerDir"):
        return None
    upper, lowers = Path(data["UpperDir"]), [Path(p) for p in data["LowerDir"].split(":")]
    if not upper.is_dir() or not all(p.is_dir() for p in lowers):
        return None
    return upper, lowers


def layer_changes(upper: Path, lowers: list[Path]) -> list[tuple[str, str]]:
    """(path, kind) for every change in `upper` over `lowers`, in the engine's terms: a whiteout is deleted, an
    entry the layers below lack is added, a file they have is changed (whatever its size and time now say), a
    folder is changed when its owner or mode changed or anything under it did; a folder removed and made again
    (opaque) lists what it hid as deleted, as a comparison of the two trees would."""
    below_tree = LowerTree(lowers)
    changes: dict[str, str] = {}
    for folder, dirnames, filenames in os.walk(upper):
        relative = "" if folder == str(upper) else "/" + os.path.relpath(folder, upper)
        for name in dirnames + filenames:
            path, entry = f"{relative}/{name}", os.path.join(folder, name)
            info = os.lstat(entry)
            if _is_whiteout(info):
                changes[path] = DELETED
                continue
            below = below_tree.stat(path)
            if stat.S_ISDIR(info.st_mode) and _is_opaque(entry) and below is not None:
                changes.update(dict.fromkeys(below_tree.hidden_children(path, entry), DELETED))
            if below is None:
                changes[path] = ADDED
            elif not (stat.S_ISDIR(info.st_mode) and stat.S_ISDIR(below.st_mode)) or _owner_or_mode_differ(info, below):
                changes[path] = CHANGED
    for path in list(changes):
        parent = os.path.dirname(path)
        while parent != "/" and parent not in changes:
            changes[parent] = CHANGED
            parent = os.path.dirname(parent)
    return sorted(changes.items())


class LowerTree:
    """The layers below as overlayfs merges them, following no link. What each folder resolves to is kept, so a
    path costs one `lstat` per layer that contributes to its folder, not one per layer at every depth."""

    def __init__(self, lowers: list[Path]):
        self._resolved: dict[tuple[str, ...], tuple[os.stat_result | None, list[Path]]] = {(): (None, list(lowers))}

    def stat(self, path: str) -> os.stat_result | None:
        """What the layers below show at `path` (None: nothing)."""
        return self._lookup(_parts(path))[0]

    def hidden_children(self, path: str, upper_folder: str) -> list[str]:
        """Entries of `path` in the layers below that the opaque folder hides and does not have itself."""
        parts = _parts(path)
        _, layers = self._lookup(parts)
        names = {name for layer in layers for name in os.listdir(layer.joinpath(*parts))}
        hidden = [f"{path}/{name}" for name in sorted(names) if not os.path.lexists(os.path.join(upper_folder, name))]
        return [entry for entry in hidden if self.stat(entry) is not None]

    def _lookup(self, parts: tuple[str, ...]) -> tuple[os.stat_result | None, list[Path]]:
        """The merged entry at `parts` and, for a folder, the layers whose own folder there contributes to it."""
        if parts in self._resolved:
            return self._resolved[parts]
        _, layers = self._lookup(parts[:-1])  # no layers: the parent is missing or not a folder
        entries = [(layer, _lstat(layer.joinpath(*parts))) for layer in layers]
        entries = [(layer, entry) for layer, entry in entries if entry is not None]
        if not entries or _is_whiteout(entries[0][1]):
            resolved: tuple[os.stat_result | None, list[Path]] = (None, [])
        elif not stat.S_ISDIR(entries[0][1].st_mode):
            resolved = (entries[0][1], [])
        else:
            below: list[Path] = []
            for layer, entry in entries:
                if not stat.S_ISDIR(entry.st_mode):
                    break  # a whiteout or a file hides the folders of the layers below it
                below.append(layer)
                if _is_opaque(str(layer.joinpath(*parts))):
                    break
            resolved = (entries[0][1], below)
        if resolved[1]:
            self._resolved[parts] = resolved
        return resolved


def _parts(path: str) -> tuple[str, ...]:
    return tuple(part for part in path.split("/") if part)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _is_whiteout(info: os.stat_result) -> bool:
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == 0


def _is_opaque(folder: str) -> bool:
    try:
        return os.getxattr(folder, OPAQUE_XATTR, follow_symlinks=False) == b"y"
    except OSError:
        return False


def _owner_or_mode_differ(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_mode, a.st_uid, a.st_gid) != (b.st_mode, b.st_uid, b.st_gid)
