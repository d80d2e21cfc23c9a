"""The queue's data: one summary row per blueprint file, cached by (path, mtime_ns, size).

Files whose row is not in the cache are parsed with the store's own reader (`read_blueprint`: the
YAML loader and the schema), so a row exists only for a valid file. Many such files (a first open,
a batch job's output) are parsed in worker processes, part by part, while the app already shows
the rows it has.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import multiprocessing.context
import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from authoring.atomic import write_atomically
from authoring.blueprint import Blueprint, search_text
from authoring.blueprint_files import BlueprintFileError, read_blueprint
from authoring.settings import settings

if TYPE_CHECKING:
    from authoring.store import BlueprintStore

CACHE_VERSION = 2
PARALLEL_FROM = 200
"""Files to parse from which worker processes share the work (below it, starting them costs more)."""
MAX_WORKERS = 8
PART_FILES = (20, 200)
"""Fewest and most files per part handed to a worker: small enough to show progress, big enough to pay off."""


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
    duplicate_of: str | None = None
    stale: bool = False
    """Edited since its latest rubric review."""
    actors: list[str] = field(default_factory=list)
    """Everyone who decided on it, the latest first."""
    last_decision: str = ""
    """`who: old → new at when`, of the latest human decision."""


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
        haystack=search_text(blueprint),
        duplicate_of=blueprint.duplicate_of,
        stale=blueprint.stale_review is not None,
        actors=list(dict.fromkeys(d.actor for d in reversed(blueprint.decisions))),
        last_decision=_decision_line(blueprint),
    )


def _decision_line(blueprint: Blueprint) -> str:
    if not blueprint.decisions:
        return ""
    d = blueprint.decisions[-1]
    return f"{d.actor}: {d.old_status} → {d.new_status} at {d.decided_at:%Y-%m-%d %H:%M}"


def _differs(before: Row, after: Row) -> bool:
    """Whether a row's content changed (a file rewritten as it was, only touched, does not count)."""
    return {**vars(before), "mtime_ns": 0, "size": 0} != {**vars(after), "mtime_ns": 0, "size": 0}


def _comparable(moment: datetime) -> float:
    return moment.timestamp()


def default_cache_path(folder: Path) -> Path:
    """Outside the repository: `$V3AST_CACHE_DIR`, else `$XDG_CACHE_HOME/v3ast`, one file per store."""
    digest = hashlib.sha1(str(Path(folder).resolve()).encode()).hexdigest()[:16]
    return settings().tui_cache / f"tui-rows-{digest}.json"


Parsed = Row | list[str] | None
"""What parsing one file gives: its row, its problems, or None when it vanished meanwhile."""


def parse_files(paths: list[str]) -> list[tuple[str, Parsed]]:
    """Each file's row or problems, read and validated by the store's reader (runs in worker processes too)."""
    results: list[tuple[str, Parsed]] = []
    for name in paths:
        path = Path(name)
        try:
            stat = path.stat()
        except FileNotFoundError:
            results.append((name, None))
            continue
        try:
            results.append((name, row_of(read_blueprint(path), path, stat)))
        except BlueprintFileError as error:
            results.append((name, error.problems))
    return results


def default_workers() -> int:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return min(usable, MAX_WORKERS)


async def parse_in_parts(paths: list[str], workers: int | None = None) -> AsyncIterator[list[tuple[str, Parsed]]]:
    """`parse_files` over `paths`, part by part as parts finish, without blocking the event loop.

    From `PARALLEL_FROM` files on, with more than one CPU, worker processes parse them (started from
    a thread, so the event loop never waits for them); otherwise a thread does, one part at a time.
    Parts that a pool could not parse (it failed to start or broke) are then parsed in a thread.
    """
    workers = default_workers() if workers is None else workers
    low, high = PART_FILES
    size = min(max(len(paths) // (max(workers, 1) * 6), low), high)
    parts = [paths[i:i + size] for i in range(0, len(paths), size)]
    if workers < 2 or len(paths) < PARALLEL_FROM:
        for part in parts:
            yield await asyncio.to_thread(parse_files, part)
        return
    pool, submitted, left = await asyncio.to_thread(_submit, parts, workers)
    try:
        pending = {asyncio.wrap_future(future): part for future, part in submitted}
        while pending:
            done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for finished in done:
                part = pending.pop(finished)
                try:
                    result = finished.result()
                except (BrokenProcessPool, OSError):
                    left.append(part)
                    continue
                yield result
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    for part in left:
        yield await asyncio.to_thread(parse_files, part)


def _submit(parts: list[list[str]], workers: int) -> tuple[ProcessPoolExecutor | None, list, list[list[str]]]:
    """A pool with every part submitted, or the parts it could not take."""
    try:
        pool = ProcessPoolExecutor(workers, mp_context=_worker_context())
    except (OSError, ValueError, ImportError, NotImplementedError):
        return None, [], list(parts)
    submitted: list[tuple[Future, list[str]]] = []
    try:
        for part in parts:
            submitted.append((pool.submit(parse_files, part), part))
    except (BrokenProcessPool, OSError, RuntimeError):
        return pool, submitted, list(parts[len(submitted):])
    return pool, submitted, []


def _worker_context() -> multiprocessing.context.BaseContext:
    """Fork on Linux: workers start in milliseconds with everything imported. (Forkserver and spawn
    re-import the program's main module in every worker, which costs more than the whole parse on
    a small machine.) The workers only parse and return; they touch nothing of the app's threads."""
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


@dataclass
class Loading:
    """One pass over the store: the files, the rows the cache still has, and what parsing gave so far."""

    paths: list[str]
    """Every blueprint file, in the store's order."""
    cached: dict[str, Row]
    """Rows from the cache whose file is unchanged, by path."""
    stale: list[str]
    """The files to parse."""
    cache_size: int
    stats: dict[str, tuple[int, int]] = field(default_factory=dict)
    """(mtime_ns, size) of every file as stat'ed before parsing."""
    parsed: dict[str, Parsed] = field(default_factory=dict)

    @property
    def done(self) -> int:
        return len(self.cached) + len(self.parsed)

    @property
    def total(self) -> int:
        return len(self.paths)


class Catalog:
    """Every blueprint of a store as rows; only files whose (mtime_ns, size) changed are parsed again.

    `load()` does it all at once; `start()`, `take(results)` for each part, then `finish()` does it in
    steps, with `rows` growing as parts are taken (the app paints the queue before the first part).
    Either way the rows and problems in the end are the same.
    """

    def __init__(self, store: BlueprintStore, cache_path: Path | None = None):
        self.store = store
        self.cache_path = cache_path
        self.rows: dict[str, Row] = {}
        self.problems_by_file: dict[str, list[str]] = {}
        """Each invalid file's problems (`file: field: problem` lines)."""
        self.parsed = 0
        self.loading: Loading | None = None
        """The pass under way, if any."""
        self._put_while_loading: set[str] = set()
        self._writing = threading.Lock()
        self._invalid: dict[str, tuple[int, int]] = {}
        """(mtime_ns, size) of the files whose problems a refresh has read."""

    @property
    def problems(self) -> list[str]:
        return [line for lines in self.problems_by_file.values() for line in lines]

    def invalid_summary(self) -> str:
        """How many files are invalid and how many problems they have, or "" when every file is valid."""
        files, problems = len(self.problems_by_file), sum(map(len, self.problems_by_file.values()))
        return f"{files} invalid file(s), {problems} problem(s)" if files else ""

    def load(self) -> None:
        loading = self.start()
        self.take(parse_files(loading.stale))
        self.finish()

    def start(self) -> Loading:
        """Stat every file and compare with the cache; `rows` becomes the cached rows still current."""
        cached = self._read_cache()
        paths, current, stale, stats = [], {}, [], {}
        for name, stat in self._file_stats():
            paths.append(name)
            stats[name] = (stat.st_mtime_ns, stat.st_size)
            row = cached.get(name)
            if row is not None and (row.mtime_ns, row.size) == (stat.st_mtime_ns, stat.st_size):
                current[name] = row
            else:
                stale.append(name)
        self.loading = Loading(paths, current, stale, len(cached), stats)
        self._put_while_loading = set()
        self.rows = {row.id: row for row in current.values()}
        self.problems_by_file = {}
        self._invalid = {}
        return self.loading

    def take(self, results: list[tuple[str, Parsed]]) -> None:
        """Add parsed files to the pass under way (and their rows to `rows` at once)."""
        assert self.loading is not None, "take() without start()"
        for name, result in results:
            self.loading.parsed[name] = result
            if isinstance(result, Row):
                if result.id not in self._put_while_loading:
                    self.rows[result.id] = result
            elif result:
                self.problems_by_file[name] = result

    def finish(self, write: bool = True) -> bool:
        """The rows and problems in the store's file order (as one pass would give); the cache written
        unless `write` is false. Whether the cache needs writing (with `write_cache()`)."""
        loading, self.loading = self.loading, None
        assert loading is not None, "finish() without start()"
        rows, problems = {}, {}
        for name in loading.paths:
            result = loading.cached.get(name) or loading.parsed.get(name)
            if isinstance(result, Row):
                rows[result.id] = result
            elif result:
                problems[name] = result
        for blueprint_id in self._put_while_loading:
            if blueprint_id in self.rows:
                rows[blueprint_id] = self.rows[blueprint_id]
        self.rows, self.problems_by_file, self.parsed = rows, problems, len(loading.parsed)
        self._invalid = {name: loading.stats[name] for name in problems}
        stale = bool(loading.parsed) or loading.cache_size != len(rows)
        if stale and write:
            self.write_cache()
        return stale

    def _file_stats(self) -> Iterator[tuple[str, os.stat_result]]:
        """Each blueprint file of the store with its stat (a file removed meanwhile is skipped)."""
        for path in self.store.files():
            try:
                yield str(path), path.stat()
            except FileNotFoundError:
                continue

    def put(self, blueprint: Blueprint) -> Row:
        """The row of a blueprint just written or re-read (its file may have moved cell)."""
        path = self.store.find(blueprint.id)
        row = row_of(blueprint, path, path.stat())
        self.rows[row.id] = row
        if self.loading is not None:
            self._put_while_loading.add(row.id)
        return row

    def changes_on_disk(self, rows: list[Row] | None = None) -> tuple[list[str], list[str]]:
        """Files new or changed since their row (or their problems) were read, and paths of rows or invalid files
        that are gone — one stat per file, nothing parsed. `rows`: a copy of the rows, to run in a thread."""
        by_path = {row.path: row for row in (self.rows.values() if rows is None else rows)}
        changed, present, invalid = [], set(), dict(self._invalid)
        known_invalid = list(self.problems_by_file)
        for name, stat in self._file_stats():
            present.add(name)
            row = by_path.get(name)
            known = (row.mtime_ns, row.size) if row is not None else invalid.get(name)
            if known != (stat.st_mtime_ns, stat.st_size):
                changed.append(name)
        return changed, [name for name in [*by_path, *known_invalid] if name not in present]

    def apply_changes(self, results: list[tuple[str, Parsed]], gone: list[str]) -> list[tuple[Row | None, Row | None]]:
        """Take freshly parsed files and vanished paths into the rows and problems; each blueprint that
        changed as (row before, row now), None for one that is new or gone."""
        before = {row.id: row for row in self.rows.values()}
        by_path = {row.path: row for row in self.rows.values()}
        touched = set()
        for name in gone:
            self.problems_by_file.pop(name, None)
            self._invalid.pop(name, None)
            row = by_path.get(name)
            if row is not None and self.rows.get(row.id) is row:
                del self.rows[row.id]
                touched.add(row.id)
        for name, result in results:
            self.problems_by_file.pop(name, None)
            self._invalid.pop(name, None)
            if isinstance(result, Row):
                self.rows[result.id] = result
                touched.add(result.id)
            elif result:
                self.problems_by_file[name] = result
                try:
                    stat = os.stat(name)
                    self._invalid[name] = (stat.st_mtime_ns, stat.st_size)
                except FileNotFoundError:
                    pass
        return [(before.get(i), self.rows.get(i)) for i in sorted(touched)
                if before.get(i) is None or self.rows.get(i) is None or _differs(before[i], self.rows[i])]

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

    def write_cache(self, rows: list[Row] | None = None) -> None:
        """Write `rows` (default: the current rows) to the cache file, atomically. Safe in a thread:
        one row is encoded at a time, so the event loop keeps getting its turns."""
        if self.cache_path is None:
            return
        rows = list(self.rows.values()) if rows is None else rows
        text = f'{{"version": {CACHE_VERSION}, "rows": [' + ", ".join(json.dumps(vars(r)) for r in rows) + "]}"
        with self._writing:
            write_atomically(self.cache_path, text)
