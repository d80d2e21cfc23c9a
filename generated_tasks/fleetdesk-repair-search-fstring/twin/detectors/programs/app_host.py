"""Run by exercise.py in a process of its own (python3 -I -S): load the delivered fleetdesk WSGI app, with every
sqlite3.connect of this process pointed at the scratch database, and answer one JSON request per stdin line with one
JSON line [status, body] on a private copy of stdout. Whatever the delivered code prints goes to stderr (discarded):
it can shape only its own answers, never the judge's report.

argv: workdir, database."""

import base64
import io
import json
import os
import sqlite3
import sys

WORKDIR, DATABASE = sys.argv[1], sys.argv[2]
answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
real_connect = sqlite3.connect


def connect(*args, **kwargs):
    kwargs.pop("database", None)
    kwargs.pop("uri", None)
    return real_connect(DATABASE, *args[1:], **kwargs)


def call(app, path: str, query: str, method: str, body: bytes, content_type: str) -> tuple[int, str]:
    status = {}
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "8060", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1:8060",
               "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": content_type,
               "wsgi.input": io.BytesIO(body), "wsgi.errors": io.StringIO(), "wsgi.url_scheme": "http",
               "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": False,
               "wsgi.run_once": False}
    try:
        chunks = app(environ, lambda line, headers, exc_info=None: status.setdefault("line", line))
        text = b"".join(chunks).decode("utf-8", "replace")
        if hasattr(chunks, "close"):
            chunks.close()
    except Exception as error:  # the delivered code raised: a server would answer 500
        return 500, f"{type(error).__name__}: {error}"
    try:
        return int(str(status.get("line", "500")).split()[0]), text
    except ValueError:
        return 500, text


def main() -> None:
    sqlite3.connect = connect
    os.environ["FLEETDESK_DB"] = DATABASE
    sys.path[:0] = [os.path.join(WORKDIR, "src"), WORKDIR]
    os.chdir(WORKDIR)
    try:
        from fleetdesk.app import application
    except BaseException as error:  # noqa: B036 — any failure to load is reported, not raised past the protocol
        answers.write(json.dumps({"loaded": False, "error": f"{type(error).__name__}: {error}"}) + "\n")
        answers.flush()
        return
    answers.write(json.dumps({"loaded": True}) + "\n")
    answers.flush()
    for line in sys.stdin:
        try:
            path, query, method, body, content_type = json.loads(line)
        except (ValueError, TypeError):  # not a request: delivered code writing into this process's input
            continue
        answers.write(json.dumps(call(application, path, query, method, base64.b64decode(body), content_type)) + "\n")
        answers.flush()


main()
