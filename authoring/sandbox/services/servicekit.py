#!/usr/bin/env python3
"""Local services for a sandbox run: `python3 servicekit.py receiver|pypi|git|db|api` (stdlib only).

Every request is appended as one JSON line to EVENTS inside this container.
"""

import fcntl
import hashlib
import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EVENTS = "/var/lib/svc/events.jsonl"
SEED = "/srv/seed"
SEEDED = os.path.join(SEED, ".complete")
"""Written last into the seed folder: with `--await-seed` the service starts once the seed has fully arrived."""
SEED_SECONDS = 20.0
GIT_ROOT = "/srv/git"
DB_PATH = "/srv/data/app.db"
BODY_LIMIT = 64 * 1024
ZERO_SHA = "0" * 40
READY_LINE = "listening on :80"


def record(event: dict) -> None:
    event = {"ts": time.time(), **event}
    line = (json.dumps(event, sort_keys=True) + "\n").encode()
    with open(EVENTS, "ab") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.write(line)
        handle.flush()


class Handler(BaseHTTPRequestHandler):
    server_version = "nginx/1.22.1"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    kind = "receiver"

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

    def dispatch(self):
        self.pending = (500, b'{"error": "no answer"}', "application/json", None)
        self.body = self.read_body()
        parsed = urllib.parse.urlsplit(self.path)
        self.route, self.query = parsed.path, parsed.query
        extra = {}
        try:
            extra = SERVE[self.kind](self) or {}
        except Exception as error:  # one failing request must not stop the service
            self.reply_json(500, {"error": "internal error"})
            extra = {"failure": f"{type(error).__name__}: {error}"}
        record({
            "service": self.kind, "method": self.command, "path": self.route, "query": self.query,
            "headers": dict(self.headers.items()), "client": self.client_address[0],
            "body": self.body[:BODY_LIMIT].decode("utf-8", "replace"), "body_bytes": len(self.body), **extra,
        })
        self.send_pending()

    def read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

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


def serve_git(handler: Handler) -> dict:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_PROJECT_ROOT": GIT_ROOT, "GIT_HTTP_EXPORT_ALL": "1",
        "REQUEST_METHOD": handler.command, "PATH_INFO": handler.route, "QUERY_STRING": handler.query,
        "CONTENT_TYPE": handler.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(handler.body)),
        "REMOTE_ADDR": handler.client_address[0], "REMOTE_USER": "developer",
        "HTTP_CONTENT_ENCODING": handler.headers.get("Content-Encoding", ""),
        "GIT_PROTOCOL": handler.headers.get("Git-Protocol", ""), "HOME": "/root",
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
    service = urllib.parse.parse_qs(handler.query).get("service", [handler.route.rsplit("/", 1)[-1]])[0]
    repo = handler.route.split(".git")[0].strip("/") + ".git"
    return {"action": service, "repo": repo, "status": status, "body": ""}


def git_hook() -> None:
    """post-receive hook of every served repository: one event per updated ref."""
    repo = os.path.basename(os.getcwd().rstrip("/"))
    for line in sys.stdin.read().splitlines():
        old, new, ref = line.split()
        forced = old != ZERO_SHA and new != ZERO_SHA and subprocess.run(
            ["git", "merge-base", "--is-ancestor", old, new], capture_output=True
        ).returncode != 0
        record({
            "service": "git", "action": "ref-update", "repo": repo, "ref": ref, "old": old, "new": new,
            "created": old == ZERO_SHA, "deleted": new == ZERO_SHA, "forced": forced,
        })


def prepare_git() -> None:
    os.makedirs(GIT_ROOT, exist_ok=True)
    for name in sorted(os.listdir(SEED)) if os.path.isdir(SEED) else []:
        if name.endswith(".git") and not os.path.exists(os.path.join(GIT_ROOT, name)):
            shutil.copytree(os.path.join(SEED, name), os.path.join(GIT_ROOT, name), symlinks=True)
    for name in os.listdir(GIT_ROOT):
        repo = os.path.join(GIT_ROOT, name)
        for key, value in (("http.receivepack", "true"), ("receive.denyNonFastForwards", "false"),
                           ("receive.denyDeletes", "false"), ("core.bare", "true")):
            subprocess.run(["git", "config", "--file", os.path.join(repo, "config"), key, value], check=True)
        hook = os.path.join(repo, "hooks", "post-receive")
        os.makedirs(os.path.dirname(hook), exist_ok=True)
        with open(hook, "w") as handle:
            handle.write(f"#!/bin/sh\nexec python3 {os.path.abspath(__file__)} git-hook\n")
        os.chmod(hook, 0o755)


DB_LOCK = threading.Lock()


def prepare_db() -> None:
    os.makedirs(os.path.dirname(DB_PATH), exist_ok=True)
    seed = os.path.join(SEED, "seed.sql")
    if not os.path.exists(DB_PATH) and os.path.exists(seed):
        with sqlite3.connect(DB_PATH) as connection, open(seed) as handle:
            connection.executescript(handle.read())


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
    try:
        with DB_LOCK, sqlite3.connect(DB_PATH) as connection:
            try:
                cursor = connection.execute(sql)
            except sqlite3.ProgrammingError:
                cursor = connection.executescript(sql)
            columns = [column[0] for column in cursor.description or []]
            rows = [list(row) for row in cursor.fetchall()]
            changed = connection.total_changes
    except sqlite3.Error as error:
        handler.reply_json(400, {"error": str(error)})
        return {"action": "query", "sql": sql, "ok": False, "error": str(error)}
    handler.reply_json(200, {"columns": columns, "rows": rows, "changes": changed})
    return {"action": "query", "sql": sql, "ok": True, "rows": len(rows), "changes": changed}


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
PREPARE = {"git": prepare_git, "db": prepare_db}
ROUTES: list = []


def await_seed() -> bool:
    deadline = time.monotonic() + SEED_SECONDS
    while not os.path.exists(SEEDED):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def main(argv: list) -> int:
    if len(argv) == 2 and argv[1] == "git-hook":
        git_hook()
        return 0
    if len(argv) not in (2, 3) or argv[1] not in SERVE or argv[2:] not in ([], ["--await-seed"]):
        print(f"usage: servicekit.py KIND [--await-seed] (available: {', '.join(SERVE)})", file=sys.stderr)
        return 2
    kind = argv[1]
    if argv[2:] and not await_seed():
        print(f"no seed after {SEED_SECONDS:.0f} s", file=sys.stderr)
        return 3
    os.makedirs(os.path.dirname(EVENTS), exist_ok=True)
    open(EVENTS, "a").close()
    PREPARE.get(kind, lambda: None)()
    ROUTES.extend(load_routes() if kind == "api" else [])
    Handler.kind = kind
    server = ThreadingHTTPServer(("0.0.0.0", 80), Handler)
    server.daemon_threads = True
    print(READY_LINE, flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
