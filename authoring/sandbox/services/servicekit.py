#!/usr/bin/env python3
"""Local services for a sandbox run: `python3 servicekit.py receiver|pypi|git|db|api` (stdlib only).

Every request is appended, whole, as one JSON line to EVENTS inside this container; bytes sent to the port that
no request accounts for are appended as `raw` events. The program starts as root, opens EVENTS (owned by root),
prepares its data and then serves as SERVICE_USER, who can write only its data: nothing a client sends can
rewrite the evidence.
"""

import base64
import bz2
import hashlib
import html
import json
import os
import pwd
import re
import select
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EVENTS = "/var/lib/svc/events.jsonl"
SEED = "/srv/seed"
SEEDED_FILE = ".complete"
SEEDED = os.path.join(SEED, SEEDED_FILE)
"""Written last into the seed folder: with `--await-seed` the service starts once the seed has fully arrived."""
SEED_SECONDS = 20.0
GIT_ROOT = "/srv/git"
DATA_ROOT = "/srv/data"
DB_PATH = os.path.join(DATA_ROOT, "app.db")
SERVICE_USER = "svc"
OWNED_BY_SERVICE = (GIT_ROOT, DATA_ROOT)
DECODED_LIMIT = 64 * 1024 * 1024
"""Largest Content-Encoding expansion kept as `body_decoded_b64`."""
STALL_SECONDS = 1.0
"""A connection silent this long with bytes no event accounts for gets them recorded as a `raw` event."""
IDLE_SECONDS = 120.0
DRAIN_SECONDS = 0.2
"""How long a closing connection waits for more bytes sent after its last request"""
DRAIN_LIMIT_SECONDS = 2.0
"""and how long it reads them at most."""
ZERO_SHA = "0" * 40
READY_LINE = "listening on :80"


EVENTS_FD: list[int] = []
"""The events file, opened for appending while still root; the only way anything here writes to it."""
EVENTS_LOCK = threading.Lock()


def record(event: dict) -> None:
    line = memoryview((json.dumps({"ts": time.time(), **event}, sort_keys=True) + "\n").encode())
    with EVENTS_LOCK:
        while line:
            line = line[os.write(EVENTS_FD[0], line):]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def content_decoded(body: bytes, encoding: str) -> bytes | None:
    """A `Content-Encoding: gzip|deflate|bzip2` body decoded, when it decodes (bounded in size)."""
    encoding = encoding.strip().lower()
    modes = {"gzip": [16 + zlib.MAX_WBITS], "x-gzip": [16 + zlib.MAX_WBITS],
             "deflate": [zlib.MAX_WBITS, -zlib.MAX_WBITS]}.get(encoding, [])
    for wbits in modes:
        try:
            return zlib.decompressobj(wbits).decompress(body, DECODED_LIMIT)
        except zlib.error:
            continue
    if encoding == "bzip2":
        try:
            return bz2.BZ2Decompressor().decompress(body, DECODED_LIMIT)
        except (OSError, ValueError):
            return None
    return None


class Wire:
    """A connection's incoming bytes, as the HTTP parser's file: keeps every byte since the last recorded request
    so that what no request accounts for can be recorded too."""

    def __init__(self, sock: socket.socket, on_stall):
        self.sock, self.on_stall = sock, on_stall
        self.stream = bytearray()
        """Bytes received since the last recorded request; the parser has consumed `stream[:pos]`."""
        self.pos = 0
        self.on_record = 0
        """`stream[:on_record]` is already on record as raw bytes."""
        self.receiving = True
        self.closed = False

    def _fill(self) -> bool:
        """Wait for more bytes (False at end of stream); while waiting, what arrived so far goes on record."""
        size, idle = len(self.stream), 0.0
        while len(self.stream) == size and self.receiving:
            if not self._receive(STALL_SECONDS):
                self.on_stall()
                idle += STALL_SECONDS
                if idle >= IDLE_SECONDS:
                    raise TimeoutError("connection idle")
        return len(self.stream) > size

    def _receive(self, seconds: float) -> bool:
        """Append what arrives within `seconds`; False when nothing did. Sets `receiving` False at end of stream."""
        try:
            if not select.select([self.sock], [], [], seconds)[0]:
                return False
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        self.stream += data
        self.receiving = bool(data)
        return True

    def readline(self, limit: int = -1) -> bytes:
        while True:
            end = self.stream.find(b"\n", self.pos)
            available = len(self.stream) - self.pos
            if end >= 0 or (0 <= limit <= available) or not self._fill():
                break
        stop = len(self.stream) if end < 0 else end + 1
        if limit >= 0:
            stop = min(stop, self.pos + limit)
        return self.take(stop)

    def read(self, size: int = -1) -> bytes:
        while (size < 0 or len(self.stream) - self.pos < size) and self._fill():
            pass
        return self.take(len(self.stream) if size < 0 else min(len(self.stream), self.pos + size))

    def take(self, stop: int) -> bytes:
        data, self.pos = bytes(self.stream[self.pos:stop]), stop
        return data

    def accounted(self) -> None:
        """The bytes consumed so far belong to a recorded request."""
        del self.stream[:self.pos]
        self.on_record, self.pos = max(0, self.on_record - self.pos), 0

    def unrecorded(self, drain_seconds: float | None = None) -> bytes:
        """Bytes no event holds yet, after reading what the client already sent (waiting up to drain_seconds)."""
        deadline = time.monotonic() + DRAIN_LIMIT_SECONDS
        while self.receiving and time.monotonic() < deadline and self._receive(drain_seconds or 0.0):
            pass
        data, self.on_record = bytes(self.stream[self.on_record:]), len(self.stream)
        return data

    def close(self) -> None:
        self.closed = True


class Handler(BaseHTTPRequestHandler):
    server_version = "nginx/1.22.1"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    kind = "receiver"

    def log_message(self, format, *args):
        pass

    def setup(self):
        super().setup()
        self.rfile.close()
        self.rfile = self.wire = Wire(self.connection, self.record_unrecorded)

    def finish(self):
        self.record_unrecorded(DRAIN_SECONDS)
        super().finish()

    def record_unrecorded(self, drain_seconds: float | None = None) -> None:
        data = self.wire.unrecorded(drain_seconds)
        if data:
            record({"service": self.kind, "action": "raw", "client": self.client_address[0],
                    "raw_b64": b64(data), "raw_bytes": len(data)})

    def send_error(self, code, message=None, explain=None):
        """Only for what is not a well-formed request: its bytes go on record before the answer."""
        self.record_unrecorded()
        super().send_error(code, message, explain)

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

    def dispatch(self):
        self.pending = (500, b'{"error": "no answer"}', "application/json", None)
        try:
            self.body, complete = self.read_body()
        except ValueError:
            self.send_error(400)
            return
        parsed = urllib.parse.urlsplit(self.path)
        self.route, self.query = parsed.path, parsed.query
        extra = {}
        try:
            extra = SERVE[self.kind](self) or {}
        except Exception as error:  # one failing request must not stop the service
            self.reply_json(500, {"error": "internal error"})
            extra = {"failure": f"{type(error).__name__}: {error}"}
        event = {
            "service": self.kind, "method": self.command, "path": self.route, "query": self.query,
            "headers": dict(self.headers.items()), "client": self.client_address[0],
            "body": self.body.decode("utf-8", "replace"), "body_b64": b64(self.body), "body_bytes": len(self.body),
        }
        decoded = content_decoded(self.body, self.headers.get("Content-Encoding", "")) if self.body else None
        if decoded is not None:
            event["body_decoded_b64"] = b64(decoded)
        if not complete:
            event["body_incomplete"] = True
        record({**event, **extra})
        self.wire.accounted()
        if self.close_connection:
            self.record_unrecorded()
        self.send_pending()

    def read_body(self) -> tuple[bytes, bool]:
        """The request's body, and whether all of it arrived. ValueError: the framing is not HTTP."""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                line = self.rfile.readline()
                if not line:
                    return b"".join(chunks), False
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks), True
                chunk = self.rfile.read(size)
                chunks.append(chunk)
                if len(chunk) < size:
                    return b"".join(chunks), False
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0:
            raise ValueError("negative Content-Length")
        body = self.rfile.read(length) if length else b""
        return body, len(body) == length

    def reply(self, status: int, body: bytes, content_type: str, headers: dict | None = None):
        """Held until the request's event is recorded: once a client has its answer, the evidence exists."""
        self.pending = (status, body, content_type, headers)

    def send_pending(self):
        status, body, content_type, headers = self.pending
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def reply_json(self, status: int, payload) -> None:
        self.reply(status, json.dumps(payload).encode(), "application/json")


def serve_receiver(handler: Handler) -> dict:
    handler.reply_json(200, {"status": "ok"})
    return {}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def package_project(filename: str) -> str:
    stem = filename[: -len(".tar.gz")] if filename.endswith(".tar.gz") else filename
    return normalize(stem.split("-")[0] if filename.endswith(".whl") else stem.rsplit("-", 1)[0])


def package_files() -> dict:
    folder = os.path.join(SEED, "packages")
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    return {name: os.path.join(folder, name) for name in names if name.endswith((".whl", ".tar.gz", ".zip"))}


def serve_pypi(handler: Handler) -> dict:
    files = package_files()
    parts = [part for part in handler.route.split("/") if part]
    if parts == ["simple"]:
        projects = sorted({package_project(name) for name in files})
        links = "".join(f'<a href="/simple/{p}/">{p}</a>\n' for p in projects)
        handler.reply(200, f"<!DOCTYPE html><html><body>\n{links}</body></html>".encode(), "text/html")
        return {"action": "index"}
    if len(parts) == 2 and parts[0] == "simple":
        project = normalize(parts[1])
        matches = [name for name in files if package_project(name) == project]
        if not matches:
            handler.reply(404, b"Not Found", "text/plain")
            return {"action": "project", "project": project, "found": False}
        links = "".join(
            f'<a href="/packages/{html.escape(name)}#sha256={sha256_of(files[name])}">{html.escape(name)}</a><br/>\n'
            for name in matches
        )
        handler.reply(200, f"<!DOCTYPE html><html><body>\n{links}</body></html>".encode(), "text/html")
        return {"action": "project", "project": project, "found": True}
    if len(parts) == 2 and parts[0] == "packages" and parts[1] in files:
        with open(files[parts[1]], "rb") as handle:
            handler.reply(200, handle.read(), "application/octet-stream")
        return {"action": "download", "project": package_project(parts[1]), "file": parts[1]}
    handler.reply(404, b"Not Found", "text/plain")
    return {"action": "unknown"}


def sha256_of(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


GIT_PUSH_LOCK = threading.Lock()


def serve_git(handler: Handler) -> dict:
    service = urllib.parse.parse_qs(handler.query).get("service", [handler.route.rsplit("/", 1)[-1]])[0]
    repo = handler.route.split(".git")[0].strip("/") + ".git"
    if handler.command != "POST":
        return {**run_git_backend(handler), "action": service, "repo": repo, "body": ""}
    # git-http-backend picks the service from the path, not the query, and finds a repository under several names
    # (`x`, `x.git`, `x/.git`): every POST is compared before and after on every served repository.
    repositories = served_repositories()  # git-http-backend never creates one
    with GIT_PUSH_LOCK:
        before = {name: git_refs(path) for name, path in repositories}
        result = run_git_backend(handler)
        after = {name: git_refs(path) for name, path in repositories}
    for name, path in repositories:
        old_refs, new_refs = before[name], after[name]
        for ref in sorted(old_refs.keys() | new_refs.keys()):
            old, new = old_refs.get(ref, ZERO_SHA), new_refs.get(ref, ZERO_SHA)
            if old != new:
                forced = old != ZERO_SHA and new != ZERO_SHA and subprocess.run(
                    ["git", "--git-dir", path, "merge-base", "--is-ancestor", old, new], capture_output=True
                ).returncode != 0
                record({
                    "service": "git", "action": "ref-update", "repo": name, "ref": ref, "old": old, "new": new,
                    "created": old == ZERO_SHA, "deleted": new == ZERO_SHA, "forced": forced,
                    "path": handler.route,
                })
    return {**result, "action": service, "repo": repo, "body": ""}


def served_repositories() -> list[tuple[str, str]]:
    """(name, path) of every repository the service serves (what `prepare_git` set up under GIT_ROOT)."""
    names = sorted(os.listdir(GIT_ROOT)) if os.path.isdir(GIT_ROOT) else []
    return [(name, os.path.join(GIT_ROOT, name)) for name in names if os.path.isdir(os.path.join(GIT_ROOT, name))]


def git_refs(repo_path: str) -> dict[str, str]:
    listing = subprocess.run(["git", "--git-dir", repo_path, "for-each-ref", "--format=%(objectname) %(refname)"],
                             capture_output=True, text=True, check=True).stdout
    return {ref: sha for sha, ref in (line.split(" ", 1) for line in listing.splitlines())}


def run_git_backend(handler: Handler) -> dict:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_PROJECT_ROOT": GIT_ROOT, "GIT_HTTP_EXPORT_ALL": "1",
        "REQUEST_METHOD": handler.command, "PATH_INFO": handler.route, "QUERY_STRING": handler.query,
        "CONTENT_TYPE": handler.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(handler.body)),
        "REMOTE_ADDR": handler.client_address[0], "REMOTE_USER": "developer",
        "HTTP_CONTENT_ENCODING": handler.headers.get("Content-Encoding", ""),
        "GIT_PROTOCOL": handler.headers.get("Git-Protocol", ""), "HOME": pwd.getpwuid(os.getuid()).pw_dir,
    }
    result = subprocess.run(
        ["git", "http-backend"], input=handler.body, env=env, capture_output=True, timeout=120
    )
    head, _, body = result.stdout.partition(b"\r\n\r\n")
    if not _:
        head, _, body = result.stdout.partition(b"\n\n")
    status, headers, content_type = 200, {}, "text/plain"
    for line in head.decode("latin-1").splitlines():
        name, _, value = line.partition(":")
        if name.lower() == "status":
            status = int(value.strip().split()[0])
        elif name.lower() == "content-type":
            content_type = value.strip()
        elif name:
            headers[name.strip()] = value.strip()
    handler.reply(status, body, content_type, headers)
    return {"status": status}


def prepare_git() -> None:
    os.makedirs(GIT_ROOT, exist_ok=True)
    for name in sorted(os.listdir(SEED)) if os.path.isdir(SEED) else []:
        if name.endswith(".git") and not os.path.exists(os.path.join(GIT_ROOT, name)):
            shutil.copytree(os.path.join(SEED, name), os.path.join(GIT_ROOT, name), symlinks=True)
    for name in os.listdir(GIT_ROOT):
        repo = os.path.join(GIT_ROOT, name)
        for key, value in (("http.receivepack", "true"), ("receive.denyNonFastForwards", "false"),
                           ("receive.denyDeletes", "false"), ("core.bare", "true"), ("core.hooksPath", "/dev/null")):
            subprocess.run(["git", "config", "--file", os.path.join(repo, "config"), key, value], check=True)


DB_LOCK = threading.Lock()
QUERY_ORDER = iter(range(1, sys.maxsize))
"""Taken under DB_LOCK: the order queries ran in (requests answered at once may be logged in another order)."""


def prepare_db() -> None:
    os.makedirs(os.path.dirname(DB_PATH), exist_ok=True)
    seed = os.path.join(SEED, "seed.sql")
    if not os.path.exists(DB_PATH) and os.path.exists(seed):
        with sqlite3.connect(DB_PATH) as connection, open(seed) as handle:
            connection.executescript(handle.read())


ATTACHABLE = ("", ":memory:")
"""What ATTACH may open: a temporary database (plain VACUUM attaches one); never a file."""
FORBIDDEN_FUNCTIONS = {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}
SETTABLE_PRAGMAS = {
    "analysis_limit", "application_id", "automatic_index", "busy_timeout", "cache_size", "cache_spill",
    "case_sensitive_like", "cell_size_check", "count_changes", "defer_foreign_keys", "empty_result_callbacks",
    "foreign_keys", "full_column_names", "ignore_check_constraints", "incremental_vacuum", "integrity_check",
    "legacy_alter_table", "max_page_count", "optimize", "query_only", "quick_check", "recursive_triggers",
    "reverse_unordered_selects", "secure_delete", "short_column_names", "synchronous", "temp_store",
    "user_version", "wal_checkpoint", "foreign_key_check", "foreign_key_list", "index_info", "index_list",
    "index_xinfo", "table_info", "table_list", "table_xinfo",
}
"""PRAGMAs that may take an argument: per-connection settings, reads and checks. Not journal_mode, locking_mode,
writable_schema, schema_version, page_size, auto_vacuum, mmap_size, temp_store_directory and the like, which write
files elsewhere or change the file in ways the read-only snapshot of the database cannot follow."""


def authorize(action: int, arg1, arg2, database, trigger) -> int:
    """SQLite authorizer of every query: the agent may change the database, never write outside it."""
    if action == sqlite3.SQLITE_ATTACH and arg1 not in ATTACHABLE or action == sqlite3.SQLITE_DETACH:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and str(arg2).lower() in FORBIDDEN_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA and arg2 is not None and str(arg1).lower() not in SETTABLE_PRAGMAS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


QUERY_SECONDS = 10.0
"""A query running longer is interrupted (and recorded): nothing holds the database or escapes the log forever."""


def serve_db(handler: Handler) -> dict:
    if handler.command == "GET" and handler.route.rstrip("/") == "/tables":
        with DB_LOCK, sqlite3.connect(DB_PATH) as connection:
            rows = connection.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").fetchall()
        handler.reply_json(200, {"tables": [row[0] for row in rows]})
        return {"action": "tables"}
    if handler.command != "POST" or handler.route.rstrip("/") != "/query":
        handler.reply_json(404, {"error": "not found"})
        return {"action": "unknown"}
    try:
        sql = json.loads(handler.body or b"{}").get("sql", "")
    except (ValueError, AttributeError):
        handler.reply_json(400, {"error": 'expected JSON {"sql": "..."}'})
        return {"action": "query", "ok": False, "error": "bad request"}
    ran: dict = {}
    try:
        with DB_LOCK, sqlite3.connect(DB_PATH) as connection:
            ran.update(order=next(QUERY_ORDER), started=time.time())
            connection.set_authorizer(authorize)
            deadline = time.monotonic() + QUERY_SECONDS
            connection.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
            try:
                cursor = connection.execute(sql)
            except sqlite3.ProgrammingError:
                cursor = connection.executescript(sql)
            columns = [column[0] for column in cursor.description or []]
            rows = [list(row) for row in cursor.fetchall()]
            changed = connection.total_changes
            ran["finished"] = time.time()
    except sqlite3.Error as error:
        if ran:
            ran.setdefault("finished", time.time())
        handler.reply_json(400, {"error": str(error)})
        return {"action": "query", "sql": sql, "ok": False, "error": str(error), **ran}
    handler.reply_json(200, {"columns": columns, "rows": rows, "changes": changed})
    return {"action": "query", "sql": sql, "ok": True, "rows": len(rows), "changes": changed, **ran}


def load_routes() -> list:
    path = os.path.join(SEED, "routes.json")
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        return json.load(handle)


def serve_api(handler: Handler) -> dict:
    for route in ROUTES:
        if route.get("method", "GET").upper() == handler.command and route.get("path") == handler.route:
            if "text" in route:  # served as is: a script, a page, a plain-text answer
                body, content_type = str(route["text"]).encode(), route.get("content_type", "text/plain; charset=utf-8")
            else:
                body, content_type = json.dumps(route.get("body", {})).encode(), "application/json"
            handler.reply(int(route.get("status", 200)), body, content_type, route.get("headers"))
            return {"action": "route", "matched": route.get("path")}
    handler.reply_json(404, {"error": "not found"})
    return {"action": "route", "matched": None}


SERVE = {"receiver": serve_receiver, "pypi": serve_pypi, "git": serve_git, "db": serve_db, "api": serve_api}
SERVICE_KINDS = tuple(SERVE)
"""Every kind of local service; the pair format and the sandbox take them from here."""
PREPARE = {"git": prepare_git, "db": prepare_db}
ROUTES: list = []


def await_seed() -> bool:
    deadline = time.monotonic() + SEED_SECONDS
    while not os.path.exists(SEEDED):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def open_events() -> None:
    os.makedirs(os.path.dirname(EVENTS), exist_ok=True)
    EVENTS_FD.append(os.open(EVENTS, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644))


def become_service_user() -> None:
    """Hand the data to SERVICE_USER and serve as that user; the events file stays root's (written through the
    descriptor opened before)."""
    if os.getuid() != 0:
        return
    user = pwd.getpwnam(SERVICE_USER)
    for top in OWNED_BY_SERVICE:
        for folder, _, files in os.walk(top):
            for path in [folder, *(os.path.join(folder, name) for name in files)]:
                os.lchown(path, user.pw_uid, user.pw_gid)
    for folder, _, files in os.walk(SEED):  # served as is (packages): readable, whatever modes the archive had
        os.chmod(folder, os.stat(folder).st_mode | 0o555)
        for path in (os.path.join(folder, name) for name in files):
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o444)
    os.setgroups([])
    os.setgid(user.pw_gid)
    os.setuid(user.pw_uid)
    os.environ["HOME"] = user.pw_dir


def main(argv: list) -> int:
    if len(argv) not in (2, 3) or argv[1] not in SERVE or argv[2:] not in ([], ["--await-seed"]):
        print(f"usage: servicekit.py KIND [--await-seed] (available: {', '.join(SERVE)})", file=sys.stderr)
        return 2
    kind = argv[1]
    if argv[2:] and not await_seed():
        print(f"no seed after {SEED_SECONDS:.0f} s", file=sys.stderr)
        return 3
    open_events()
    PREPARE.get(kind, lambda: None)()
    ROUTES.extend(load_routes() if kind == "api" else [])
    Handler.kind = kind
    server = ThreadingHTTPServer(("0.0.0.0", 80), Handler)
    server.daemon_threads = True
    become_service_user()
    print(READY_LINE, flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
