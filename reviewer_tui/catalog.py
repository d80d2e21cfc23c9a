"""The queue's data: one summary row per blueprint file, cached by (path, mtime_ns, size)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from authoring.blueprint import Blueprint
from authoring.blueprint_files import BlueprintFileError, read_blueprint
from authoring.store import BlueprintStore

CACHE_VERSION = 1
SEARCHED_FIELDS = (
    "id", "title", "engineering_task", "trap", "safety_cue", "harmful_path",
    "safe_path", "detection_criteria", "source_reference",
)


@dataclass(frozen=True)
class Row:
    """What the queue shows, sorts and filters on, without re-reading the YAML."""

    id: str
    title: str
    cell: str
    status: str
    total: int | None
    band: str | None
    date: str
    """The latest activity: creation, rubric review or human decision (ISO 8601)."""
    path: str
    mtime_ns: int
    size: int
    scores: dict[str, int] = field(default_factory=dict)
    haystack: str = ""
    """The searched fields, lower-cased, for free-text filtering."""


def row_of(blueprint: Blueprint, path: Path, stat: os.stat_result) -> Row:
    review = blueprint.latest_review
    moments = [blueprint.provenance.created_at]
    moments += [r.reviewed_at for r in blueprint.reviews] + [d.decided_at for d in blueprint.decisions]
    return Row(
        id=blueprint.id,
        title=blueprint.title,
        cell=blueprint.taxonomy_id,
        status=str(blueprint.status),
        total=review.total if review else None,
        band=str(review.band) if review else None,
        date=max(moments, key=_comparable).isoformat(),
        path=str(path),
        mtime_ns=stat.st_mtime_ns,
        size=stat.st_size,
        scores={s.dimension: s.score for s in review.scores} if review else {},
        haystack=" ".join(str(getattr(blueprint, f)) for f in SEARCHED_FIELDS).lower(),
    )


def _comparable(moment: datetime) -> float:
    return moment.timestamp()


def default_cache_path(folder: Path) -> Path:
    """Outside the repository: `$V3AST_CACHE_DIR`, else `$XDG_CACHE_HOME/v3ast`, one file per store."""
    base = os.environ.get("V3AST_CACHE_DIR") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    ) / "v3ast"
    digest = hashlib.sha1(str(Path(folder).resolve()).encode()).hexdigest()[:16]
    return Path(base) / f"tui-rows-{digest}.json"


class Catalog:
    """Every blueprint of a store as rows; only files whose (mtime_ns, size) changed are parsed again."""

    def __init__(self, store: BlueprintStore, cache_path: Path | None = None):
        self.store = store
        self.cache_path = cache_path
        self.rows: dict[str, Row] = {}
        self.problems: list[str] = []
        self.parsed = 0

    def load(self) -> None:
        cached = self._read_cache()
        rows, problems, parsed = {}, [], 0
        for path in self.store.files():
            stat = path.stat()
            row = cached.get(str(path))
            if row is None or (row.mtime_ns, row.size) != (stat.st_mtime_ns, stat.st_size):
                parsed += 1
                try:
                    row = row_of(read_blueprint(path), path, stat)
                except BlueprintFileError as error:
                    problems.extend(error.problems)
                    continue
            rows[row.id] = row
        self.rows, self.problems, self.parsed = rows, problems, parsed
        if parsed or len(cached) != len(rows):
            self._write_cache()

    def put(self, blueprint: Blueprint) -> Row:
        """The row of a blueprint just written or re-read (its file may have moved cell)."""
        path = self.store.find(blueprint.id)
        row = row_of(blueprint, path, path.stat())
        self.rows[row.id] = row
        return row

    def is_current(self, row: Row) -> bool:
        """Whether the file still is what the row was made from."""
        try:
            stat = os.stat(row.path)
        except FileNotFoundError:
            return False
        return (stat.st_mtime_ns, stat.st_size) == (row.mtime_ns, row.size)

    def _read_cache(self) -> dict[str, Row]:
        if self.cache_path is None or not self.cache_path.exists():
            return {}
        try:
            data = json.loads(self.cache_path.read_text(encoding="utf-8"))
            if data.get("version") != CACHE_VERSION:
                return {}
            return {entry["path"]: Row(**entry) for entry in data["rows"]}
        except (OSError, ValueError, TypeError, KeyError):
            return {}

    def _write_cache(self) -> None:
        if self.cache_path is None:
            return
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        data = {"version": CACHE_VERSION, "rows": [asdict(r) for r in self.rows.values()]}
        temporary = self.cache_path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data), encoding="utf-8")
        os.replace(temporary, self.cache_path)
