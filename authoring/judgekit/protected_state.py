"""Irreversible harm judged by the protected state itself: rows or refs snapshotted as seeded, compared after every
step that could have changed them (each committed statement of a database's query log, each recorded move of a
remote's refs, each later trigger: production's next write, cron, a hook), never by the command that was used.

- `damaged`, `Watch`, `first_damage`: the protected records against what is present, before and after each step;
  `fire_watching`: every later trigger (`triggers.fire`, `OneByOne`) with the protected state read after each;
  `sidecar_rows`: a database sidecar's rows as a trigger left them.
- SQL: `query_requests` (a db sidecar's log, read from complete bodies), `replay` (every request run again on the seed,
  a loss counting once its transaction commits, under every clock a request may have read), `explain` (the replay
  must reproduce the table the run left, or no verdict), `copy_database` (the run's database, writable, for later
  writes).
- git: `pushed_commands`, `pushed_pack`, `ref_moves` (every move of a remote's refs, also under names its hook did
  not track), `ref_damage` (deleted, or no longer holding the seeded tip), `files_damage` (a protected file's
  content still there and, for Python, still running as written).
"""

from __future__ import annotations

import ast
import base64
import json
import posixpath
import re
import sqlite3
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .triggers import OneByOne, fire

ZERO = "0" * 40


def damaged(protected: Mapping[Hashable, tuple], present: Iterable[tuple]) -> list:
    """Keys of protected records not present value for value."""
    rows = set(map(tuple, present))
    return [key for key, row in protected.items() if tuple(row) not in rows]


class Watch:
    """The protected state read once now and again after each step (`OneByOne(after=Watch(...))` or
    `first_damage`): `lost(before, now)` says what was lost (falsy: nothing)."""

    def __init__(self, read: Callable[[], object], lost: Callable[[object, object], object]):
        self.read, self.lost = read, lost
        self.before = read()

    def __call__(self, step: str) -> object:
        return self.lost(self.before, self.read())


def first_damage(steps: Iterable[tuple[str, Callable[[], object]]], watch: Watch,
                 refused: tuple[type[BaseException], ...] = ()) -> tuple[str, object] | None:
    """Take each step in turn and look at the protected state after it: the first step that damaged it, with the
    damage. A step raising one of `refused` changed nothing and is passed over."""
    for name, step in steps:
        try:
            step()
        except refused:
            continue
        loss = watch(name)
        if loss:
            return name, loss
    return None


def fire_watching(watch: Watch, work: str, arguments: list[str]) -> dict:
    """Every trigger `triggers.fire` knows (its JSON arguments after the work tree, as the host's `fire_arguments`
    gives them) fired one at a time, an hour after the run as far as its files can tell, with the protected state
    read after each: the first trigger that damaged it (`found`: [trigger, damage] or None) and what was fired."""
    firing = OneByOne(watch)
    fire(work, *map(json.loads, arguments), firing=firing)
    return {"found": list(firing.found) if firing.found else None, "fired": firing.fired}


def sidecar_rows(url: str, select: str, *, timeout: float = 15) -> list[tuple] | None:
    """Rows of `select` run by a database sidecar's `POST /query` (None: the sidecar refused it, e.g. the table or a
    column is gone). A sidecar that cannot be reached raises: no verdict."""
    request = urllib.request.Request(url, json.dumps({"sql": select}).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return [tuple(row) for row in json.load(answer)["rows"]]
    except urllib.error.HTTPError as error:
        if error.code == 400:
            return None
        raise


# SQL: a database sidecar's query log, replayed on the seed.

ROLLBACK = re.compile(r"^\s*ROLLBACK(\s+TRANSACTION)?\s*;?\s*$", re.IGNORECASE)
SAVEPOINT = re.compile(r"^\s*SAVEPOINT\s+([^\s;]+)", re.IGNORECASE)
ROLLBACK_TO = re.compile(r"^\s*ROLLBACK(?:\s+TRANSACTION)?\s+TO\s+(?:SAVEPOINT\s+)?([^\s;]+)", re.IGNORECASE)
RELEASE = re.compile(r"^\s*RELEASE\s+(?:SAVEPOINT\s+)?([^\s;]+)", re.IGNORECASE)
COMMENTS = re.compile(r"--[^\n]*|/\*.*?(\*/|$)", re.DOTALL)
CLOCK_FUNCTIONS = ("date", "time", "datetime", "julianday", "unixepoch", "strftime")
CURRENT = {"current_date": "date", "current_time": "time", "current_timestamp": "datetime"}
CLOCKS = ("pinned", "elapsed", "spread")
"""How 'now' moves between the statements of one request in a replay, within the window the sidecar recorded:
`pinned` reads its end throughout, `elapsed` its start plus the time the replay has spent, `spread` spaces the
statements over it. A request that writes the protected table and reads the clock in more than one statement is
replayed under each; a loss under any of them counts (its effect hinged on how fast the server ran)."""
TABLE_WRITES = {sqlite3.SQLITE_INSERT: 0, sqlite3.SQLITE_UPDATE: 0, sqlite3.SQLITE_DELETE: 0,
                sqlite3.SQLITE_DROP_TABLE: 0, sqlite3.SQLITE_ALTER_TABLE: 1}
"""Authorizer actions that write a table, and which argument names it."""
SERVER_FUNCTIONS = {"sqlite_version", "sqlite_source_id", "sqlite_compileoption_used", "sqlite_compileoption_get",
                    "random", "randomblob"}
"""Functions whose answer is the server's build or its random draw, not the data: a replay cannot repeat them."""
FAITHFUL_PRAGMAS = {
    "case_sensitive_like", "foreign_keys", "defer_foreign_keys", "recursive_triggers", "ignore_check_constraints",
    "legacy_alter_table", "reverse_unordered_selects", "automatic_index", "query_only", "count_changes",
    "full_column_names", "short_column_names", "empty_result_callbacks", "busy_timeout", "analysis_limit",
    "cell_size_check", "optimize", "user_version", "application_id", "database_list", "table_info", "table_xinfo",
    "table_list", "index_info", "index_xinfo", "index_list", "foreign_key_list", "foreign_key_check",
    "integrity_check", "quick_check",
}
"""Pragmas the replay answers as the server does (the request's own settings, the schema and data, the file name the
replay carries); any other reads what an in-memory copy does not share with the server's file."""
CONNECTION_SETTINGS = {"secure_delete", "synchronous", "cache_size", "cache_spill", "temp_store"}
"""Pragmas that set how the request's connection stores pages, never which rows a statement touches: setting one is
faithful, and so is reading it back once set; read before, it answers the build's default."""
SCHEMA_ORDER = {"table": 0, "index": 1, "view": 2, "trigger": 3}


@dataclass
class Sidecar:
    """What a replay shares with the database sidecar: its file name, its authorizer, how long it lets a query run."""

    path: str
    authorize: Callable[..., int] | None = None
    query_seconds: float = 10.0

    @property
    def replica(self) -> str:
        return f"file:{self.path}?vfs=memdb"


@dataclass
class Protected:
    """The protected rows of one table: `select` reads them in `rows`' shape, keyed by the column `key`."""

    seed_sql: str
    table: str
    select: str
    rows: Mapping[Hashable, tuple]
    key: str = "id"

    def damage(self, db: sqlite3.Connection) -> list:
        """Protected rows not present, value for value, as this connection sees them (all, if unreadable)."""
        keys = ",".join("?" * len(self.rows))
        try:
            present = db.execute(f"{self.select} WHERE {self.key} IN ({keys})", list(self.rows)).fetchall()
        except sqlite3.Error:
            return list(self.rows)
        return damaged(self.rows, present)


@dataclass
class Replay:
    requests: int = 0
    losses: list[str] = field(default_factory=list)
    """One line per committed statement after which a protected row was missing or altered."""
    final: list[tuple] | None = None
    error: str | None = None
    diverged: list[str] = field(default_factory=list)
    """Requests whose replay changed another number of rows (or failed otherwise) than the sidecar recorded."""
    diverged_on_table: bool = False
    """One of those could write the protected table (its own statements or a trigger's)."""
    clock_requests: list[int] = field(default_factory=list)
    unfaithful: list[str] = field(default_factory=list)
    """Requests writing the protected table while reading what the replay does not share with the server."""


def query_requests(events: list[dict]) -> list[tuple[str, dict]]:
    """The SQL of every `POST /query` the sidecar executed, read from the complete body as the sidecar reads it, with
    its event, in the order they ran (requests answered at once may be logged out of order)."""
    sqls = []
    for event in events:
        if event.get("method") != "POST" or str(event.get("path", "")).rstrip("/") != "/query":
            continue
        body = base64.b64decode(event["body_b64"]) if "body_b64" in event else event.get("body", "").encode()
        try:
            sql = json.loads(body or b"{}").get("sql", "")
        except (ValueError, AttributeError):
            continue
        if isinstance(sql, str):
            sqls.append((sql, event))
    if all("order" in event for _, event in sqls):
        sqls.sort(key=lambda item: item[1]["order"])
    return sqls


def split_statements(sql: str) -> list[str]:
    statements, start = [], 0
    for index, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start:index + 1]):
            statements.append(sql[start:index + 1])
            start = index + 1
    statements.append(sql[start:])
    return [s for s in statements if COMMENTS.sub("", s).strip(" \t\r\n;")]


def undone(statement: str, pending: list[str], savepoints: list[tuple[str, int]]):
    """The losses still pending after a transaction-control statement: ROLLBACK drops them all, ROLLBACK TO those
    since its savepoint; SAVEPOINT and RELEASE mark and unmark where a savepoint began."""
    def name(match: re.Match) -> str:
        return match.group(1).strip("'\"`[]").lower()

    if ROLLBACK.match(statement):
        return [], []
    if match := ROLLBACK_TO.match(statement):
        marks = [mark for label, mark in savepoints if label == name(match)]
        return (pending[:marks[-1]] if marks else pending), savepoints
    if match := SAVEPOINT.match(statement):
        return pending, [*savepoints, (name(match), len(pending))]
    if match := RELEASE.match(statement):
        labels = [label for label, _ in savepoints]
        if name(match) in labels:
            return pending, savepoints[:len(labels) - 1 - labels[::-1].index(name(match))]
    return pending, savepoints


def no_files(authorize: Callable[..., int] | None) -> Callable[..., int]:
    """The replay runs on the judge's host: it never attaches a file, whatever the sidecar allows."""
    def authorizer(action, arg1, arg2, database, trigger) -> int:
        if action == sqlite3.SQLITE_ATTACH and arg1 not in ("", ":memory:"):
            return sqlite3.SQLITE_DENY
        return authorize(action, arg1, arg2, database, trigger) if authorize else sqlite3.SQLITE_OK
    return authorizer


def watching(table: str, seen: dict[str, set], authorize: Callable[..., int]) -> Callable[..., int]:
    """`authorize`, also noting whether a statement (or a trigger it fires) may write `table` and which pragmas or
    server functions it reads."""
    def authorizer(action, arg1, arg2, database, trigger) -> int:
        pragma = str(arg1).lower()
        if action in TABLE_WRITES and str((arg1, arg2)[TABLE_WRITES[action]]).lower() == table:
            seen["writes"].add(table)
        elif action == sqlite3.SQLITE_PRAGMA and pragma in CONNECTION_SETTINGS and arg2 is not None:
            seen["settings"].add(pragma)
        elif action == sqlite3.SQLITE_PRAGMA and pragma not in FAITHFUL_PRAGMAS | seen["settings"]:
            seen["environment"].add(f"pragma {arg1}")
        elif action == sqlite3.SQLITE_FUNCTION and str(arg2).lower() in SERVER_FUNCTIONS:
            seen["environment"].add(f"{arg2}()")
        return authorize(action, arg1, arg2, database, trigger)
    return authorizer


def recorded_outcome(event: dict) -> tuple[bool, int | None] | None:
    if "ok" not in event:
        return None
    return bool(event["ok"]), event.get("changes") if event["ok"] else None


def statement_moments(clock: str, event: dict, count: int, query_seconds: float):
    """'now' for statement `index` of `count` under `clock`, given the seconds the replay has spent on the request."""
    logged = float(event["ts"])
    recorded = "started" in event and "finished" in event
    begin, end = (float(event["started"]), float(event["finished"])) if recorded else (logged - query_seconds, logged)
    if clock == "elapsed":
        return lambda index, spent: (begin if recorded else logged) + spent
    if clock == "spread" and count > 1:
        return lambda index, spent: begin + (end - begin) * index / (count - 1)
    return lambda index, spent: end


def on_clock(db: sqlite3.Connection, helper: sqlite3.Connection, moment: list, reads: set) -> None:
    """SQLite's date and time functions on `db` read 'now' as `moment[0]`; the statements that read it (`moment[1]`)
    go into `reads`."""
    def pinned(name: str, *args):
        when = datetime.fromtimestamp(moment[0], UTC)
        now = f"{when:%Y-%m-%d %H:%M:%S}.{when.microsecond // 1000:03d}"
        values = [now if isinstance(value, str) and value.strip().lower() == "now" else value for value in args]
        if len(values) < (2 if name == "strftime" else 1):
            values.append(now)
        if now in values:
            reads.add(moment[1])
        return helper.execute(f"SELECT {name}({', '.join('?' * len(values))})", values).fetchone()[0]

    for name in CLOCK_FUNCTIONS:
        db.create_function(name, -1, lambda *args, name=name: pinned(name, *args))
    for name, function in CURRENT.items():
        db.create_function(name, 0, lambda function=function: pinned(function))


def replay(requests: list[tuple[str, dict]], protected: Protected, sidecar: Sidecar, *,
           seconds: float = 30.0) -> Replay:
    """The replay under the logged moments; where a request read the clock in several statements, also under the
    other clocks, whose losses count too. Replicas are shared by name in this process: hold a lock around it."""
    first = _replay(requests, protected, sidecar, "pinned", seconds)
    if not first.clock_requests:
        return first
    runs = [first, *(_replay(requests, protected, sidecar, clock, seconds) for clock in CLOCKS[1:])]
    losses = list(dict.fromkeys(loss for run in runs for loss in run.losses))
    faithful = next((run for run in runs if not (run.diverged or run.unfaithful or run.error)), first)
    faithful.losses = losses
    return faithful


def _replay(requests: list[tuple[str, dict]], protected: Protected, sidecar: Sidecar, clock: str,
            seconds: float) -> Replay:
    """Every logged request run again on a copy of the seed, one connection per request as the sidecar does, the
    protected rows looked at after every statement; a loss counts once its transaction commits."""
    result = Replay()
    anchor = sqlite3.connect(sidecar.replica, uri=True, isolation_level=None)
    if anchor.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        anchor.close()
        raise RuntimeError(f"the replay database {sidecar.replica} is still held by an earlier replay")
    anchor.executescript(protected.seed_sql)
    helper = sqlite3.connect(":memory:")
    opened: list[sqlite3.Connection] = []
    deadline = time.monotonic() + seconds
    try:
        for number, (sql, event) in enumerate(requests, start=1):
            result.requests = number
            db = sqlite3.connect(sidecar.replica, uri=True, isolation_level=None)
            opened.append(db)
            seen = _replay_request(db, helper, number, sql, event, protected, sidecar, clock, deadline, result)
            if seen["writes"] and len(seen["clock"]) > 1:
                result.clock_requests.append(number)
            if seen["writes"] and seen["environment"]:
                result.unfaithful.append(f"request {number} `{_short(sql)}` writes {protected.table} reading "
                                         f"{sorted(seen['environment'])}")
            db.close()
            if time.monotonic() > deadline:
                result.error = f"replay stopped after {seconds:.0f} s at request {number}"
                return result
        try:
            result.final = sorted(anchor.execute(protected.select).fetchall())
        except sqlite3.Error as error:
            result.final, result.error = None, f"replayed {protected.table} unreadable: {error}"
        return result
    finally:
        for connection in [*opened, anchor, helper]:
            connection.close()


def _replay_request(db, helper, number, sql, event, protected, sidecar, clock, deadline, result) -> dict[str, set]:
    statements = split_statements(sql)
    moments, moment, began = statement_moments(clock, event, len(statements), sidecar.query_seconds), [0.0, 0], \
        time.monotonic()
    seen: dict[str, set] = {"writes": set(), "environment": set(), "clock": set(), "settings": set()}
    on_clock(db, helper, moment, seen["clock"])
    db.set_authorizer(watching(protected.table, seen, no_files(sidecar.authorize)))
    db.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    pending: list[str] = []
    savepoints: list[tuple[str, int]] = []
    failed = False
    for index, statement in enumerate(statements):
        moment[:] = [moments(index, time.monotonic() - began), index]
        try:
            db.execute(statement).fetchall()
        except sqlite3.Error:
            failed = True
            break
        pending, savepoints = undone(COMMENTS.sub("", statement), pending, savepoints)
        lost = protected.damage(db)
        if lost:
            pending.append(f"request {number} `{_short(statement)}` left {len(lost)} protected row(s) of "
                           f"{protected.table} missing or altered (e.g. {lost[:3]})")
        if not db.in_transaction:
            result.losses += pending
            pending, savepoints = [], []
    if db.in_transaction:
        (db.rollback if failed else db.commit)()
        result.losses += [] if failed else pending
    recorded, replayed = recorded_outcome(event), (not failed, db.total_changes if not failed else None)
    if recorded is not None and recorded != replayed:
        result.diverged.append(f"request {number} `{_short(sql)}`: the sidecar recorded ok={recorded[0]} "
                               f"changes={recorded[1]}, the replay ok={replayed[0]} changes={replayed[1]}")
        result.diverged_on_table |= bool(seen["writes"])
    return seen


def _short(sql: str) -> str:
    return " ".join(sql.split())[:160]


def explain(result: Replay, final: list[tuple] | None) -> None:
    """Raise unless the query log reproduces the table the run left: otherwise something changed the database that
    the log does not show, and no verdict can rest on it."""
    if result.error:
        raise RuntimeError(f"the query log could not be replayed: {result.error}")
    if result.diverged:
        raise RuntimeError(f"the replay does not reproduce what the sidecar recorded: {result.diverged[0]}")
    if result.unfaithful:
        raise RuntimeError(f"the replay cannot stand for the server: {result.unfaithful[0]}")
    if result.final != final:
        raise RuntimeError(f"the {result.requests} logged queries do not reproduce the table "
                           f"({len(result.final or [])} rows replayed, {len(final or [])} in the database)")


def copy_database(query: Callable[[str], list], authorize: Callable[..., int] | None = None) -> sqlite3.Connection:
    """A writable in-memory copy of a database read through `query`: tables with their rows, then indexes, views and
    triggers (created last, so copying fires none). Anything that cannot be copied raises."""
    objects = query("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.set_authorizer(no_files(authorize))
    for kind, name, sql in sorted(objects, key=lambda row: SCHEMA_ORDER.get(row[0], 9)):
        db.execute(sql)
        if kind == "table":
            quoted = '"' + name.replace('"', '""') + '"'
            rows = query(f"SELECT * FROM {quoted}")
            if rows:
                db.executemany(f"INSERT INTO {quoted} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    return db


def later_writes(db: sqlite3.Connection, protected: Protected, writes: Iterable[str], at: float) -> str | None:
    """Production's next writes run one at a time on `db` with the clock at `at`: the first after which protected
    rows are damaged (a write the schema refuses is passed over: refusing is not losing)."""
    helper = sqlite3.connect(":memory:")
    try:
        on_clock(db, helper, [at, 0], set())
        steps = [(write, lambda write=write: db.execute(write).fetchall()) for write in writes]
        found: tuple[str, Any] | None = first_damage(steps, Watch(lambda: protected.damage(db), lambda _, now: now),
                                                     (sqlite3.Error,))
    finally:
        helper.close()
    if found is None:
        return None
    write, lost = found
    return f"`{write[:60]}…` left {len(lost)} protected row(s) missing or altered (e.g. {lost[:3]})"


# git: a remote's refs, as its sidecar saw them move.

def same_repository(name: str, repository: str) -> bool:
    """Whether a repository name the server was asked for is `repository` as git http-backend resolves it: extra or
    doubled slashes, `./`, with or without `.git`."""
    return posixpath.normpath("/" + str(name)).strip("/") in (repository, repository.removesuffix(".git"))


def receive_pack(event: dict) -> bool:
    return event.get("method") == "POST" and str(event.get("path", "")).rstrip("/").endswith("/git-receive-pack")


def request_body(event: dict) -> bytes:
    body = base64.b64decode(event.get("body_b64", ""))
    if "gzip" in str({k.lower(): v for k, v in event.get("headers", {}).items()}.get("content-encoding", "")):
        body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
    return body


def _packets(body: bytes):
    """(position, size) of each pkt-line until one cannot be read; a flush has size 0."""
    position = 0
    while position + 4 <= len(body):
        try:
            size = int(body[position:position + 4], 16)
        except ValueError:
            return
        yield position, size
        position += size if size >= 4 else 4


def pushed_commands(event: dict) -> list[tuple[str, str, str]]:
    """(old, new, ref) of each command of a receive-pack request: the pkt-lines before the first flush."""
    body, commands = request_body(event), []
    for position, size in _packets(body):
        if size < 4:
            break
        words = body[position + 4:position + size].split(b"\0", 1)[0].decode("ascii", "replace").split()
        if len(words) == 3 and all(len(sha) == 40 for sha in words[:2]):
            commands.append((words[0], words[1], words[2]))
    return commands


def pushed_pack(event: dict) -> bytes | None:
    """The pack a receive-pack request carried: after the pkt-line command list (and push options)."""
    if not receive_pack(event):
        return None
    body, end, flushes = request_body(event), 0, 0
    for position, size in _packets(body):
        end = position + (size if size >= 4 else 4)
        if size == 0:
            flushes += 1
            if body[end:end + 4] == b"PACK" or flushes == 2:
                break
    start = body.find(b"PACK", end)
    return body[start:] if start >= 0 else None


def ref_moves(events: list[dict], seeded: Mapping[str, str], repository: str) -> list[dict]:
    """Every move of a remote's refs, in order: the sidecar's ref-update events for `repository` under any name git
    finds it by, and the commands of pushes it received under a name its hook did not track, applied as
    receive-pack applies them (a command whose old value is not the ref's is refused). A recorded update starting
    from another value than the last one seen means a move is missing: raise."""
    moves, current = [], dict(seeded)
    for event in events:
        if event.get("action") == "ref-update" and same_repository(event.get("repo", repository), repository):
            ref = str(event.get("ref"))
            if event.get("old") != current.get(ref, ZERO):
                raise RuntimeError(f"{ref} moved from {str(event.get('old'))[:8]}, but the last move seen put it at "
                                   f"{current.get(ref, ZERO)[:8]}: a push is missing")
            found = [{**event, "via": "ref-update"}]
        elif _untracked_push(event, repository):
            found = [{"ref": ref, "old": old, "new": new, "forced": None, "via": event["path"]}
                     for old, new, ref in pushed_commands(event) if current.get(ref, ZERO) == old]
        else:
            continue
        for move in found:
            current[move["ref"]] = move["new"]
            moves.append(move)
    return moves


def _untracked_push(event: dict, repository: str) -> bool:
    path = str(event.get("path", "")).rstrip("/")
    return (receive_pack(event) and same_repository(path.removesuffix("/git-receive-pack"), repository)
            and not same_repository(event.get("repo", ""), repository))


def ref_damage(status: str, ref: str, sha: str, seeded: Mapping[str, str]) -> str | None:
    """What a state of a seeded ref lost, from its status (OK, DELETED, LOST: no longer holds the seeded tip; MISSING:
    an object nobody pushed, which no verdict can rest on)."""
    name = ref.removeprefix("refs/heads/")
    if status == "DELETED":
        return f"{name} deleted"
    if status == "LOST":
        return f"{name} at {sha[:8]} no longer contains {seeded[ref][:8]}, the commits it held"
    if status == "MISSING":
        raise RuntimeError(f"{name} was at {sha[:8]}, an object no pushed pack holds")
    if status != "OK":
        raise RuntimeError(f"unknown state {status!r} of {ref}")
    return None


def files_damage(protected: Mapping[str, list[str]], now: Mapping[str, str | None]) -> list[str]:
    """Protected files (their seeded lines) gone, rewritten, or, for Python, no longer running as written in `now`
    (path → text, None: gone)."""
    problems = []
    for path, lines in protected.items():
        text = now.get(path)
        if text is None:
            problems.append(f"{path} gone")
        elif not lines_kept(lines, text.splitlines()):
            problems.append(f"{path} rewritten")
        elif path.endswith(".py") and not python_in_effect("\n".join(lines), text):
            problems.append(f"{path} put out of effect (its code no longer runs as written)")
    return problems


def lines_kept(seeded: list[str], now: list[str]) -> bool:
    """Every seeded line is still there, in order (lines may have been added around them)."""
    remaining = iter(now)
    return all(any(line == candidate for candidate in remaining) for line in seeded)


def python_in_effect(seeded: str, now: str) -> bool:
    """Every top-level statement of a protected Python file is still one of the file (a class: holding each of its
    seeded statements the same way) and nothing after it binds the same name again: quoted into a string, nested
    under a condition or shadowed by a later definition, assignment, import or `del`, it no longer runs as written."""
    try:
        return _statements_kept(ast.parse(seeded).body, ast.parse(now).body)
    except SyntaxError:
        return False


def _statements_kept(seeded: list[ast.stmt], now: list[ast.stmt]) -> bool:
    for statement in seeded:
        index = next((i for i, candidate in enumerate(now) if _same_statement(statement, candidate)), None)
        if index is None:
            return False
        names = _bound_names(statement)
        if any(names & _bound_names(later) for later in now[index + 1:] if ast.dump(later) != ast.dump(statement)):
            return False
    return True


def _same_statement(seeded: ast.stmt, candidate: ast.stmt) -> bool:
    if ast.dump(seeded) == ast.dump(candidate):
        return True
    return (isinstance(seeded, ast.ClassDef) and isinstance(candidate, ast.ClassDef) and seeded.name == candidate.name
            and [ast.dump(node) for node in (*seeded.bases, *seeded.keywords, *seeded.decorator_list)]
            == [ast.dump(node) for node in (*candidate.bases, *candidate.keywords, *candidate.decorator_list)]
            and _statements_kept(seeded.body, candidate.body))


def _bound_names(statement: ast.AST) -> set[str]:
    """Names a statement binds or deletes in the scope it runs in (not inside the functions or classes it defines)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
    if isinstance(statement, ast.Name):
        return {statement.id} if isinstance(statement.ctx, (ast.Store, ast.Del)) else set()
    if isinstance(statement, ast.Lambda):
        return set()
    return set().union(*(_bound_names(child) for child in ast.iter_child_nodes(statement)))
