"""The outcome index: one row per run record, kept next to the records, so metrics and reports read a few
hundred bytes per run instead of decompressing and parsing every transcript.

The store is SQLite from the standard library, in WAL mode, one file per records folder
(`runs/<batch>/records/outcomes.sqlite`). A batch adds one row per finished run, so the store must take
small appends one at a time, each atomic with respect to `kill -9` (a transaction either commits or rolls
back), while `metrics` or `report` read it from another process (WAL: readers never block the writer).
It needs no dependency, answers "every outcome" in one scan and "this key" through an index. A columnar
file (Parquet, Arrow) would read a little faster but must be rewritten whole for each appended run and
needs pyarrow; JSON lines would need torn-write handling and compaction.

The index is derived data: the records are the truth. Each row carries the record's size, mtime and a
SHA-256 digest of its head and its transcript's gzip trailer (CRC-32 and length), which changes with any
byte of the record yet is read without the transcript, so rebuilding costs the same however long the runs
were. A record with no row (a batch killed between writing the record and its row, or records copied
in) is indexed when found; a missing index is rebuilt. A record whose bytes differ from its row, or a row
whose record is gone, is reported and left out of what the index answers, until `v3ast records reindex`
(or the next run of that batch, which trusts its own records) takes the records as they are.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from authoring.errors import NotFound
from calibration.records import (
    RECORDS_DIR,
    RunKey,
    failure_evidence,
    harness_label,
    is_record_file,
    model_label,
    read_head,
    read_indexed,
    write_record,
)

INDEX_FILE = "outcomes.sqlite"
INDEX_VERSION = 2


class OutcomeRow(NamedTuple):
    """What metrics and reports need of one run record (a tuple: tens of thousands are read per second)."""

    path: str
    """The record file, relative to its records folder."""
    key: str
    batch: str
    pair: str
    side: str
    run: int
    cell: str
    risk: str
    source: str
    content_hash: str
    judging: str
    """The judging digest the run was judged with (empty in records made before it was recorded)."""
    model: str
    harness: str
    outcome: str
    finished: bool
    attempts: int
    """Attempts made for this run slot (earlier OVERTIME attempts and the recorded one)."""
    started_at: str | None
    seconds: float | None
    model_calls: int
    prompt_tokens: int
    completion_tokens: int
    evidence: str
    """JSON list of one-line reasons (detector verdicts, harness facts)."""
    size: int
    mtime_ns: int
    sha256: str
    """The record's digest: its head and its transcript's gzip trailer (`records.read_indexed`)."""

    @property
    def group(self) -> str:
        """model × harness."""
        return f"{self.model} × {self.harness}"

    def evidence_lines(self) -> list[str]:
        return json.loads(self.evidence)

    def as_record(self) -> dict[str, Any]:
        """The record-shaped view that functions written for record heads (e.g. pair verdicts) read."""
        return {"key": {"batch": self.batch, "pair": self.pair, "side": self.side, "index": self.run},
                "pair": {"id": self.pair, "cell": self.cell, "risk": self.risk, "source": self.source,
                         "content_hash": self.content_hash, "judging": self.judging},
                "outcome": self.outcome, "finished": self.finished}

    @classmethod
    def of(cls, head: dict[str, Any], *, path: str = "", size: int = 0, mtime_ns: int = 0,
           sha256: str = "") -> OutcomeRow:
        key, pair = head["key"], head["pair"]
        timings, counts = head.get("timings") or {}, head.get("usage") or {}
        return cls(path=path, key=str(RunKey(key["batch"], key["pair"], key["side"], key["index"])),
                   batch=key["batch"], pair=key["pair"], side=key["side"], run=key["index"],
                   cell=pair.get("cell", ""), risk=pair.get("risk", ""), source=pair.get("source", ""),
                   content_hash=pair.get("content_hash", ""), judging=pair.get("judging", ""),
                   model=model_label(head), harness=harness_label(head),
                   outcome=head["outcome"], finished=bool(head.get("finished")),
                   attempts=len(head.get("attempts") or []) + 1, started_at=timings.get("started_at"),
                   seconds=timings.get("seconds"), model_calls=counts.get("model_calls", 0),
                   prompt_tokens=counts.get("prompt_tokens", 0), completion_tokens=counts.get("completion_tokens", 0),
                   evidence=json.dumps(failure_evidence(head), ensure_ascii=False), size=size, mtime_ns=mtime_ns,
                   sha256=sha256)


class RunOutcome(NamedTuple):
    """The columns of an `OutcomeRow` that metrics read, and those that tell a changed record."""

    path: str
    batch: str
    pair: str
    side: str
    run: int
    risk: str
    source: str
    model: str
    harness: str
    outcome: str
    size: int
    mtime_ns: int

    @property
    def group(self) -> str:
        return f"{self.model} × {self.harness}"


COLUMNS = OutcomeRow._fields
SCHEMA = ("CREATE TABLE runs (" + ", ".join(
    f"{name} {'TEXT PRIMARY KEY' if name == 'path' else ''}".strip() for name in COLUMNS) + ");"
          "CREATE INDEX runs_by_key ON runs (key);")


@dataclass
class Reconciled:
    """What a pass over the records found: the rows in force and what did not agree."""

    rows: list[OutcomeRow] = field(default_factory=list)
    indexed: int = 0
    """Records that had no row (or a stale one, when the records were trusted) and were indexed."""
    problems: list[str] = field(default_factory=list)


class OutcomeIndex:
    """The index of one records folder; writes are serialized by one lock per index file in this process."""

    _locks: dict[Path, threading.Lock] = {}
    _locks_guard = threading.Lock()

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.path = self.folder / INDEX_FILE
        with self._locks_guard:
            self.lock = self._locks.setdefault(self.path.resolve(), threading.Lock())

    def write(self, path: Path, record: dict[str, Any], secrets: list[str]) -> OutcomeRow:
        """Write a finished run's record and then its row, under one lock: a kill between the two leaves a
        record without (or with a stale) row, which the next pass over this folder repairs."""
        with self.lock:
            write_record(path, record, secrets)
            row, problem = self._index_file(Path(path).relative_to(self.folder).as_posix())
            if row is None:
                raise ValueError(problem)
            with self._connect() as db:
                _upsert(db, [row])
            return row

    def rows(self, under: str = "") -> Reconciled:
        """The rows of records under `under` (a path relative to the folder), after indexing new records;
        records that disagree with their rows are reported and left out."""
        return self._reconcile(trust_records=False, under=under)

    def outcomes(self, under: str = "") -> Reconciled:
        """As `rows`, with only what metrics read (`RunOutcome`): several times faster on large batches."""
        return self._reconcile(trust_records=False, under=under, shape=RunOutcome)

    def repair(self) -> Reconciled:
        """Take the records as they are: index new and changed ones, drop rows whose record is gone."""
        return self._reconcile(trust_records=True)

    def rebuild(self) -> Reconciled:
        """Index every record anew; rows that disagreed with their records are reported."""
        with self.lock:
            before = {row.path: row for row in self._select(OutcomeRow, "")}
            result = Reconciled()
            for relative in sorted(scan(self.folder)):
                row, problem = self._index_file(relative)
                old = before.pop(relative, None)
                if row is None:
                    result.problems.append(problem)
                    continue
                result.rows.append(row)
                if old is not None and old.sha256 != row.sha256:
                    result.problems.append(f"{self.folder / relative}: differed from its index row; re-indexed")
            result.problems += [f"{self.folder / path}: indexed but gone; row dropped" for path in sorted(before)]
            result.indexed = len(result.rows)
            for stale in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
                stale.unlink(missing_ok=True)
            with self._connect() as db:
                _upsert(db, result.rows)
            return result

    def _reconcile(self, *, trust_records: bool, under: str = "", shape: type = None) -> Reconciled:
        shape = shape or OutcomeRow
        prefix = f"{under.strip('/')}/" if under.strip("/") else ""
        result, left_out, fresh, dropped = Reconciled(), set(), [], []
        with self.lock:
            indexed = self._select(shape, prefix)
            known = {row.path: row for row in indexed}
            files = scan(self.folder, prefix)
            for relative, stat in files.items():
                row = known.get(relative)
                if row is not None and (row.size, row.mtime_ns) == stat:
                    continue
                now, problem = self._index_file(relative)
                same = row is not None and now is not None and self._digest(relative) == now.sha256
                if now is not None and (row is None or same or trust_records):
                    fresh.append(now)
                    result.indexed += not same
                    continue
                result.problems.append(problem or f"{self.folder / relative}: record differs from its index row; "
                                       f"left out (`v3ast records reindex {self.folder}` takes the record)")
                if row is not None and trust_records:
                    dropped.append(relative)
                elif row is not None:
                    left_out.add(relative)
            for relative in sorted(known.keys() - files.keys()):
                if trust_records:
                    dropped.append(relative)
                else:
                    left_out.add(relative)
                    result.problems.append(f"{self.folder / relative}: indexed run has no record; left out "
                                           f"(`v3ast records reindex {self.folder}` drops it)")
            if fresh or dropped:
                with self._connect() as db:
                    db.executemany("DELETE FROM runs WHERE path = ?", [(path,) for path in dropped])
                    _upsert(db, fresh)
        replaced = left_out | set(dropped) | {row.path for row in fresh}
        result.rows = [row for row in indexed if row.path not in replaced] if replaced else indexed
        if fresh:
            result.rows += [shape._make(getattr(row, name) for name in shape._fields) for row in fresh]
            result.rows.sort(key=lambda r: (r.batch, r.pair, r.side, r.run))
        return result

    def _digest(self, relative: str) -> str | None:
        with self._connect() as db:
            found = db.execute("SELECT sha256 FROM runs WHERE path = ?", (relative,)).fetchone()
        return found[0] if found else None

    def _select(self, shape: type, prefix: str) -> list:
        if not self.path.exists():
            return []
        query = (f"SELECT {', '.join(shape._fields)} FROM runs WHERE substr(path, 1, ?) = ? "
                 "ORDER BY batch, pair, side, run")
        with self._connect() as db:
            return list(map(shape._make, db.execute(query, (len(prefix), prefix))))

    def _index_file(self, relative: str) -> tuple[OutcomeRow | None, str]:
        """The row of one record file, or why there is none."""
        path = self.folder / relative
        try:
            stat = os.stat(path)
        except OSError as error:
            return None, f"{path}: unreadable ({error.strerror}); not indexed"
        found = read_indexed(path)
        if found is None:
            return None, f"{path}: not a run record, or a damaged one; not indexed"
        return OutcomeRow.of(found[0], path=relative, size=stat.st_size, mtime_ns=stat.st_mtime_ns,
                             sha256=found[1]), ""

    def _connect(self) -> _Closing:
        """A connection to an index of this version, created (empty) when it is missing or of another version."""
        self.folder.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=60)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        if db.execute("PRAGMA user_version").fetchone()[0] != INDEX_VERSION:
            db.executescript(f"BEGIN; DROP TABLE IF EXISTS runs; {SCHEMA} PRAGMA user_version = {INDEX_VERSION}; "
                             "COMMIT;")
        return _Closing(db)


class _Closing:
    """A connection used as `with`: commits (or rolls back) and closes."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        return self.db

    def __exit__(self, *error) -> None:
        try:
            self.db.__exit__(*error)
        finally:
            self.db.close()


def _upsert(db: sqlite3.Connection, rows: Iterable[OutcomeRow]) -> None:
    marks = ", ".join("?" for _ in COLUMNS)
    db.executemany(f"INSERT OR REPLACE INTO runs ({', '.join(COLUMNS)}) VALUES ({marks})", rows)


def scan(folder: Path, under: str = "") -> dict[str, tuple[int, int]]:
    """Every record file under a records folder (or its sub-folder `under`): relative path → (size, mtime ns)."""
    found: dict[str, tuple[int, int]] = {}
    root = str(folder)
    start = len(root) + 1
    pending = [os.path.join(root, under)]
    while pending:
        try:
            entries = os.scandir(pending.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                if is_record_file(entry.name) and entry.is_file(follow_symlinks=False):
                    stat = entry.stat()
                    found[entry.path[start:]] = (stat.st_size, stat.st_mtime_ns)
                elif entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
    return found


@dataclass
class Outcomes:
    """Rows gathered from record files and folders, and what was reported on the way."""

    rows: list[OutcomeRow]
    problems: list[str]
    notes: list[str]


def gather(paths: Iterable[Path]) -> Outcomes:
    """Rows for record files and folders: a folder's records come from the index of the records folder
    holding or under it (built when missing); loose record files are read directly (their heads only)."""
    result = Outcomes([], [], [])
    for path in (Path(p).resolve() for p in paths):
        if path.is_file():
            _gather_file(path, result)
        elif not path.is_dir():
            raise NotFound(f"{path}: no such file or folder")
        elif holder := next((p for p in (path, *path.parents) if p.name == RECORDS_DIR), None):
            _gather_index(holder, path.relative_to(holder).as_posix() if path != holder else "", result)
        else:
            folders, loose = records_folders(path)
            with ThreadPoolExecutor(max_workers=2) as pool:  # stat calls and SQLite release the GIL
                for folder, (existed, found) in zip(folders, pool.map(_index_outcomes, folders), strict=True):
                    _note(folder, existed, found, result)
            for file in loose:
                _gather_file(file, result, quiet=True)
    return result


def records_folders(path: Path) -> tuple[list[Path], list[Path]]:
    """The records folders under a folder, and the record files outside any of them."""
    folders, loose = [], []
    for folder, subfolders, files in os.walk(path):
        subfolders.sort()
        if Path(folder).name == RECORDS_DIR:
            subfolders.clear()
            folders.append(Path(folder))
        else:
            loose += [Path(folder) / name for name in sorted(files) if is_record_file(name)]
    return folders, loose


def _gather_file(path: Path, result: Outcomes, quiet: bool = False) -> None:
    head = read_head(path)
    if head is None:
        if not quiet:
            result.problems.append(f"{path}: not a run record")
        return
    stat = path.stat()
    result.rows.append(OutcomeRow.of(head, path=str(path), size=stat.st_size, mtime_ns=stat.st_mtime_ns))


def _gather_index(folder: Path, under: str, result: Outcomes) -> None:
    index = OutcomeIndex(folder)
    existed = index.path.exists()
    _note(folder, existed, index.outcomes(under), result)


def _index_outcomes(folder: Path) -> tuple[bool, Reconciled]:
    index = OutcomeIndex(folder)
    return index.path.exists(), index.outcomes()


def _note(folder: Path, existed: bool, found: Reconciled, result: Outcomes) -> None:
    if not existed:
        result.notes.append(f"{folder}: no outcome index; built it from {found.indexed} record(s)")
    elif found.indexed:
        result.notes.append(f"{folder}: indexed {found.indexed} record(s) that had no row")
    result.rows += found.rows
    result.problems += found.problems
