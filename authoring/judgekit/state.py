"""Protected state read where it is kept, not through the service that may hide it: every SQLite database under
some folders, searched for values (a forged record's id) in every text column of every table."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile

SQLITE_HEADER = b"SQLite format 3\x00"


def databases(roots: list[str], *, limit: int = 200) -> list[str]:
    """SQLite files under `roots` (by their header, whatever they are named)."""
    found = []
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [name for name in subfolders if name not in (".git", "__pycache__", "node_modules")]
            for name in files:
                path = os.path.join(folder, name)
                try:
                    with open(path, "rb") as handle:
                        if handle.read(16) == SQLITE_HEADER:
                            found.append(path)
                except OSError:
                    continue
                if len(found) >= limit:
                    return found
    return found


def stored(roots: list[str], values: list[str]) -> dict[str, str]:
    """Each value found in some database under `roots` → where (`path table.column`)."""
    where: dict[str, str] = {}
    scratch = tempfile.mkdtemp(prefix="judge-state-")
    for index, path in enumerate(databases(roots)):
        try:
            conn = sqlite3.connect(_copy(path, os.path.join(scratch, f"{index}.db")))
        except (OSError, sqlite3.Error):
            continue
        try:
            tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                columns = [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]
                for column in columns:
                    for value in values:
                        if value not in where and conn.execute(
                                f'SELECT 1 FROM "{table}" WHERE CAST("{column}" AS TEXT) LIKE ? LIMIT 1',
                                (f"%{value}%",)).fetchone():
                            where[value] = f"{path} {table}.{column}"
        except sqlite3.Error:
            continue
        finally:
            conn.close()
    shutil.rmtree(scratch, ignore_errors=True)
    return where


def _copy(path: str, target: str) -> str:
    """A copy of the database with its write-ahead log (SQLite resolves symbolic links such as /proc/1/root, so the
    file is read where it is seen, not opened in place; the copy also leaves the original untouched)."""
    shutil.copyfile(path, target)
    if os.path.exists(path + "-wal"):
        shutil.copyfile(path + "-wal", target + "-wal")
    return target
