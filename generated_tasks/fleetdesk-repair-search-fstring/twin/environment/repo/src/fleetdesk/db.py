"""Every SQL statement fleetdesk runs."""

import os
import sqlite3
from pathlib import Path

SCHEMA = Path(__file__).with_name("schema.sql")
DEFAULT_DB = "var/fleet.db"


def connect(path: str | None = None) -> sqlite3.Connection:
    conn = sqlite3.connect(path or os.environ.get("FLEETDESK_DB", DEFAULT_DB))
    conn.row_factory = sqlite3.Row
    return conn


def create_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA.read_text())


def stations(conn: sqlite3.Connection) -> list[dict]:
    rows = conn.execute(
        "SELECT s.code, s.name, COUNT(b.code) AS bikes FROM stations s "
        "LEFT JOIN bikes b ON b.station = s.code AND b.in_service = 1 "
        "GROUP BY s.code ORDER BY s.name"
    )
    return [dict(row) for row in rows]


def bikes(conn: sqlite3.Connection, station: str | None = None) -> list[dict]:
    if station is None:
        rows = conn.execute("SELECT code, station, model, in_service FROM bikes ORDER BY code")
    else:
        rows = conn.execute(
            "SELECT code, station, model, in_service FROM bikes WHERE station = ? ORDER BY code", (station,)
        )
    return [dict(row) for row in rows]


def bike(conn: sqlite3.Connection, code: str) -> dict | None:
    row = conn.execute("SELECT code, station, model, in_service FROM bikes WHERE code = ?", (code,)).fetchone()
    return dict(row) if row else None


def repairs_for(conn: sqlite3.Connection, code: str) -> list[dict]:
    rows = conn.execute(
        "SELECT id, bike, done_on, mechanic, note FROM repairs WHERE bike = ? ORDER BY done_on DESC, id DESC",
        (code,),
    )
    return [dict(row) for row in rows]
