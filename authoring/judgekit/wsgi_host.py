"""A program, not a module to import: run by `apphost.AppHost` as `python3 -I -S -c <this source> CONFIG`, in a
process of its own. It loads a delivered WSGI application and answers one JSON request per stdin line with one JSON
line [status, body, statements] on a private copy of stdout, where `statements` is every SQL text the request
handed to sqlite3 (as the code wrote it: bound values are not in it). Every sqlite3.connect of the process opens the
judge's scratch database when CONFIG names one. Whatever delivered code prints goes to stderr: it can shape only its
own answers, never the judge's report.

CONFIG (JSON): workdir, path (entries put first on sys.path), app ("module:attribute"), env, database."""

import base64
import io
import json
import os
import sqlite3
import sys

CONFIG = json.loads(sys.argv[1])
answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
statements: list[str] = []
real_connect = sqlite3.connect


def record(sql) -> None:
    statements.append(sql if isinstance(sql, str) else repr(sql))


class TracedCursor(sqlite3.Cursor):
    def execute(self, sql, *args, **kwargs):
        record(sql)
        return super().execute(sql, *args, **kwargs)

    def executemany(self, sql, *args, **kwargs):
        record(sql)
        return super().executemany(sql, *args, **kwargs)

    def executescript(self, sql, *args, **kwargs):
        record(sql)
        return super().executescript(sql, *args, **kwargs)


def traced(base: type) -> type:
    class TracedConnection(base):
        def cursor(self, factory=TracedCursor):
            made = super().cursor(factory)
            return made

        def execute(self, sql, *args, **kwargs):
            record(sql)
            return super().execute(sql, *args, **kwargs)

        def executemany(self, sql, *args, **kwargs):
            record(sql)
            return super().executemany(sql, *args, **kwargs)

        def executescript(self, sql, *args, **kwargs):
            record(sql)
            return super().executescript(sql, *args, **kwargs)

    return TracedConnection


def connect(database, *args, **kwargs):
    kwargs["factory"] = traced(kwargs.get("factory") or sqlite3.Connection)
    target = str(database)
    if CONFIG.get("database") and target != ":memory:" and "mode=memory" not in target:
        database = CONFIG["database"]
        kwargs.pop("uri", None)
    return real_connect(database, *args, **kwargs)


def call(app, request: list) -> list:
    path, query, method, body, content_type, headers = request
    body = base64.b64decode(body)
    status: dict[str, str] = {}
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1:8000",
               "REMOTE_ADDR": "127.0.0.1", "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": content_type,
               "wsgi.input": io.BytesIO(body), "wsgi.errors": io.StringIO(), "wsgi.url_scheme": "http",
               "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False,
               **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}}
    del statements[:]
    try:
        chunks = app(environ, lambda line, headers, exc_info=None: status.setdefault("line", line))
        text = b"".join(chunks).decode("utf-8", "replace")
        if hasattr(chunks, "close"):
            chunks.close()
        code = int(str(status.get("line", "500")).split()[0])
    except Exception as error:  # the delivered code raised (or answered no status): a server answers 500
        text, code = f"{type(error).__name__}: {error}", 500
    return [code, text, list(statements)]


def main() -> None:
    sqlite3.connect = connect
    os.environ.update(CONFIG.get("env") or {})
    sys.path[:0] = [os.path.join(CONFIG["workdir"], entry) for entry in CONFIG.get("path") or ["."]]
    os.chdir(CONFIG["workdir"])
    module, _, attribute = CONFIG["app"].partition(":")
    try:
        application = getattr(__import__(module, fromlist=["_"]), attribute or "application")
    except BaseException as error:  # noqa: B036 — any failure to load is reported, not raised past the protocol
        answers.write(json.dumps({"loaded": False, "error": f"{type(error).__name__}: {error}"}) + "\n")
        answers.flush()
        return
    answers.write(json.dumps({"loaded": True}) + "\n")
    answers.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if not (isinstance(request, list) and len(request) == 6 and isinstance(request[5], dict)):
            continue  # not a request: delivered code writing into this process's input
        answers.write(json.dumps(call(application, request)) + "\n")
        answers.flush()


main()
