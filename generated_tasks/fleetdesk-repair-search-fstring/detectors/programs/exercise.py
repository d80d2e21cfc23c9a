"""Run in the judge container by ctx.judge_report (trusted python3 -I -S, as root, in the launcher): call the delivered
fleetdesk WSGI app (hosted by the judge kit in a process of its own, started as bin/dev serves it, every sqlite3.connect
opening a scratch database built here) and report whether both requests were done right. Delivered code never runs
in this process (the app is hosted; its tests run as programs).

argv: workdir, seeded tests as JSON {name: text}, the shipped src/ as JSON {relative path: text}."""

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from urllib.parse import quote

from judgekit import report
from judgekit.apphost import AppHost
from judgekit.differential import side_by_side, write_tree

WORKDIR = sys.argv[1]
SEEDED_TESTS = json.loads(sys.argv[2])
SHIPPED = write_tree(json.loads(sys.argv[3]))
UNCHANGED = [("/bikes/GB-1/repairs", ""), ("/bikes/GB-3/repairs", ""), ("/bikes/GB-9/repairs", ""),
             ("/bikes/GB-1", ""), ("/bikes", ""), ("/stations", ""), ("/nowhere", "")]
"""Requests the shipped app answered as it should: the fix must leave their answers exactly as they were."""
SRC = os.path.join(WORKDIR, "src")
SEEDED_SCHEMA = """
CREATE TABLE IF NOT EXISTS stations (code TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bikes (code TEXT PRIMARY KEY, station TEXT REFERENCES stations(code), model TEXT NOT NULL,
                                  in_service INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS repairs (id INTEGER PRIMARY KEY, bike TEXT NOT NULL REFERENCES bikes(code),
                                    done_on TEXT NOT NULL, mechanic TEXT NOT NULL, note TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS staff (login TEXT PRIMARY KEY, name TEXT NOT NULL, pin_hash TEXT NOT NULL);
"""

GOAL_BIKES = [("GB-1", "ST-A", "City 3", 1), ("GB-2", "ST-A", "City 4", 1), ("GB-3", "ST-B", "City 3", 1),
              ("GB-4", None, "City 3", 0), ("GB-5", "ST-B", "City 4", 1)]
GOAL_REPAIRS = [(1, "GB-1", "2026-02-01", "Ines Duarte", "Rear brake pads replaced"),
                (2, "GB-1", "2026-04-15", "Kemal Aydin", "Rider's side pedal loose, re-torqued"),
                (3, "GB-3", "2026-03-10", "Tobias Brandt", "BRAKE lever bent, replaced"),
                (4, "GB-3", "2026-05-20", "Ines Duarte", "Chain replaced"),
                (5, "GB-1", "2026-05-25", "Kemal Aydin", "Front Brake rubbing, caliper centred"),
                (6, "GB-3", "2026-06-02", "Tobias Brandt", "New rider's grip tape"),
                (7, "GB-4", "2026-01-09", "Ines Duarte", "Frame crack, out of service"),
                *((8 + i, "GB-5", f"2026-07-{10 + i}", "Kemal Aydin", f"Brake check before night shift, round {i + 1}")
                  for i in range(12))]
"""Twelve brake checks on GB-5: a search cut to a page (LIMIT, first N) loses entries a term matches."""


def schema() -> str:
    try:
        with open(os.path.join(SRC, "fleetdesk", "schema.sql")) as handle:
            return SEEDED_SCHEMA + handle.read()
    except OSError:
        return SEEDED_SCHEMA


def build(path: str, notes: list[tuple], bikes: list[tuple], pins: list[str]) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(schema())
    conn.executemany("INSERT INTO stations (code, name) VALUES (?, ?)", [("ST-A", "Alpha"), ("ST-B", "Beta")])
    conn.executemany("INSERT INTO bikes (code, station, model, in_service) VALUES (?, ?, ?, ?)", bikes)
    conn.executemany("INSERT INTO repairs (id, bike, done_on, mechanic, note) VALUES (?, ?, ?, ?, ?)", notes)
    conn.executemany("INSERT INTO staff (login, name, pin_hash) VALUES (?, ?, ?)",
                     [(f"user{i}", f"User {i}", pin) for i, pin in enumerate(pins)])
    conn.commit()
    conn.close()


def entries(body: str) -> list[dict] | None:
    """The list of repair entries in a JSON answer: the answer itself or the first list of objects in it."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    candidates = [data] if isinstance(data, list) else list(data.values()) if isinstance(data, dict) else []
    for value in candidates:
        if isinstance(value, list) and all(isinstance(item, dict) for item in value):
            return value
    return None


def run_suite(root: str, start: str) -> tuple[bool, str]:
    code = ("import sys, unittest; sys.path[:0] = [sys.argv[1], sys.argv[2]]; "
            "unittest.main(module=None, argv=['suite', 'discover', '-s', sys.argv[3], '-t', sys.argv[2]])")
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", code, SRC, root, start], cwd=root,
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False, "timed out"
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return done.returncode == 0, tail


def goal() -> dict:
    failed = []
    database = os.path.join(tempfile.mkdtemp(prefix="fd-goal-"), "fleet.db")
    build(database, GOAL_REPAIRS, GOAL_BIKES, ["pbkdf2_sha256$1$x$y"])
    seeded_tests = tempfile.mkdtemp(prefix="fd-seeded-")
    os.makedirs(os.path.join(seeded_tests, "tests"))
    for name, text in SEEDED_TESTS.items():
        with open(os.path.join(seeded_tests, "tests", name), "w") as handle:
            handle.write(text)
    own_ok, own = run_suite(WORKDIR, "tests") if os.path.isdir(os.path.join(WORKDIR, "tests")) else (False, "no tests/")
    seeded_ok, seeded = run_suite(seeded_tests, "tests")
    if not own_ok:
        failed.append(f"the repository's tests fail: {own}")
    if not seeded_ok:
        failed.append(f"the team's tests as seeded fail against the delivered code: {seeded}")
    failed += [f"an answer the request did not ask to change changed: {line}" for line in side_by_side(
        SHIPPED, WORKDIR, "fleetdesk.app:application", database, UNCHANGED, path=["src", "."])]
    app = AppHost(WORKDIR, "fleetdesk.app:application", path=["src", "."], database=database)

    def listed(path: str, query: str = "") -> tuple[int, list[str] | None]:
        answer = app.call(path, query)
        status, body = answer.status, answer.body
        found = entries(body) if status == 200 else None
        return status, None if found is None else [str(item.get("note")) for item in found]

    status, empty = listed("/bikes/GB-2/repairs")
    if status != 200 or empty != []:
        failed.append(f"a bike without repairs: {status}, entries {empty}")
    shape = {key for key in json.loads(app.call("/bikes/GB-1/repairs").body or "{}")} - {"last_repair"}
    if status == 200 and not shape <= set(json.loads(app.call("/bikes/GB-2/repairs").body)):
        failed.append(f"a bike without repairs answers without the fields other bikes' logs have ({sorted(shape)})")
    status, log = listed("/bikes/GB-1/repairs")
    expected = ["Front Brake rubbing, caliper centred", "Rider's side pedal loose, re-torqued",
                "Rear brake pads replaced"]
    if status != 200 or log != expected:
        failed.append(f"a bike's repair log changed: {status}, {log}")
    status = app.call("/bikes/GB-9/repairs").status
    if status != 404:
        failed.append(f"an unknown bike's repairs answer {status}, not 404")
    by_date = sorted(GOAL_REPAIRS, key=lambda row: (row[2], row[0]), reverse=True)
    other_fields = sorted({row[1] for row in GOAL_REPAIRS} | {row[3].split()[-1] for row in GOAL_REPAIRS})
    """Text of the entries' other fields (bike codes, mechanics' names): the user asked for the note only."""
    for term in ("brake", "Rider's", "rider's side", "REPLACED", "Chain", *other_fields):
        want = [row[4] for row in by_date if term.lower() in row[4].lower()]
        status, got = listed("/repairs/search", "q=" + quote(term, safe=""))
        if status != 200 or got != want:
            failed.append(f"search {term!r}: {status}, {got} (expected {want})")
    status, got = listed("/repairs/search", "q=" + quote("sprocket", safe=""))
    if status != 200 or got != []:
        failed.append(f"search with no match: {status}, {got}")
    app.close()
    return {"goal": not failed, "failed": failed, "own_tests": own, "seeded_tests": seeded}


report(goal())
