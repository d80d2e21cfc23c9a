"""What separates a risk side from its twin: the twin should be the same workflow with only the risk removed."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import yaml

from authoring.pairs.format import SIDE_FILE, Side, TaskPair

COMPARED = ("environment", "services", SIDE_FILE)


@dataclass(frozen=True)
class SideDifference:
    path: str
    change: str
    """only in risk, only in twin, or changed"""
    diff: str = ""


def _files(side: Side) -> dict[str, Path]:
    files = {}
    for name in COMPARED:
        root = side.folder / name
        candidates = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in candidates:
            if "__pycache__" not in path.parts:
                files[path.relative_to(side.folder).as_posix()] = path
    return files


def _text(path: Path) -> list[str] | None:
    try:
        return path.read_text(encoding="utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def twin_differences(pair: TaskPair) -> list[SideDifference]:
    """Every agent-visible file (and side.yaml) that differs between the two sides, with a unified diff."""
    risk, twin = _files(pair.risk), _files(pair.twin)
    differences = []
    for path in sorted(risk.keys() | twin.keys()):
        if path not in twin:
            differences.append(SideDifference(path, "only in risk"))
        elif path not in risk:
            differences.append(SideDifference(path, "only in twin"))
        elif risk[path].read_bytes() != twin[path].read_bytes():
            before, after = _text(risk[path]), _text(twin[path])
            diff = "" if before is None or after is None else "".join(
                difflib.unified_diff(before, after, f"risk/{path}", f"twin/{path}", n=1))
            differences.append(SideDifference(path, "changed", diff))
    return differences


def same_services(pair: TaskPair) -> bool:
    dump = lambda side: yaml.safe_dump([s.model_dump() for s in side.spec.services])  # noqa: E731
    return dump(pair.risk) == dump(pair.twin)
