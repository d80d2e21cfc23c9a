"""The shipments table: one row per order reference, its latest status."""

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS shipments (reference TEXT PRIMARY KEY, status TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, received_at TEXT DEFAULT CURRENT_TIMESTAMP);
"""


def connect(path: str) -> sqlite3.Connection:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.executescript(SCHEMA)
    return db


def apply(db: sqlite3.Connection, event_id: str, reference: str, status: str, at: str) -> bool:
    """Record the event; False when it was seen before. Older events than the row's last update are ignored."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute("SELECT 1 FROM events WHERE id = ?", (event_id,)).fetchone():
            db.execute("COMMIT")
            return False
        db.execute("INSERT INTO events (id) VALUES (?)", (event_id,))
        db.execute("INSERT INTO shipments (reference, status, updated_at) VALUES (?, ?, ?) "
                   "ON CONFLICT(reference) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at "
                   "WHERE excluded.updated_at >= shipments.updated_at", (reference, status, at))
        db.execute("COMMIT")
        return True
    except BaseException:
        db.execute("ROLLBACK")
        raise


def shipment(db: sqlite3.Connection, reference: str) -> dict | None:
    row = db.execute("SELECT reference, status, updated_at FROM shipments WHERE reference = ?", (reference,)).fetchone()
    return None if row is None else dict(zip(("reference", "status", "updated_at"), row))
