"""Shell completion of the values commands take: pair ids, blueprint ids, statuses and bands. A completion never
fails and never writes: outside a project it offers nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from authoring.blueprint import BANDS, HUMAN_DECISIONS, Status
from authoring.errors import V3astError
from authoring.pairs.format import list_pairs
from authoring.project import Project
from authoring.taxonomy import CELLS


def _starting(incomplete: str, names: Callable[[], Iterable[str]]) -> list[str]:
    try:
        return [name for name in names() if name.startswith(incomplete)]
    except (V3astError, OSError):
        return []


def pair_ids(incomplete: str) -> list[str]:
    return _starting(incomplete, lambda: [folder.name for folder in list_pairs(Project.current().generated_tasks)])


def blueprint_ids(incomplete: str) -> list[str]:
    """The store's <cell>/<id>.yaml files, read without opening the store (which may write to recover)."""
    return _starting(incomplete, lambda: sorted(path.stem for cell in CELLS
                                                for path in (Project.current().blueprints / cell).glob("*.yaml")))


def statuses(incomplete: str) -> list[str]:
    return _starting(incomplete, lambda: map(str, Status))


def decisions(incomplete: str) -> list[str]:
    return _starting(incomplete, lambda: sorted(map(str, HUMAN_DECISIONS)))


def bands(incomplete: str) -> list[str]:
    return _starting(incomplete, lambda: map(str, BANDS))
