"""A delivered WSGI application in a process of its own (`wsgi_host`), asked requests by a judge program: every
answer comes with the SQL statements the request ran (for `sqltaint`)."""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass

from . import program_source

CONTEXTS = {"deployed": [], "isolated": ["-I", "-S"]}
"""How the host's interpreter starts: `deployed` as the project's own entry point would (site enabled, the box's
start-up files and PYTHONPATH applied: code that behaves only when a checker isolates it is seen as it runs), or
`isolated` (-I -S)."""


@dataclass
class Answer:
    status: int
    body: str
    statements: list[str]


class AppHost:
    """`AppHost(workdir, "pkg.app:application", path=["src"], database=scratch)`; `call(...)` → Answer. Delivered code
    runs in the host process only: it can shape its own answers, never this program's report."""

    def __init__(self, workdir: str, app: str, *, path: list[str] | None = None, env: dict | None = None,
                 database: str | None = None, seconds: float = 30, context: str = "deployed"):
        config = {"workdir": workdir, "app": app, "path": path or ["."], "env": env or {}, "database": database}
        self.seconds, self.buffer, self.context = seconds, b"", context
        argv = [sys.executable, *CONTEXTS[context], "-c", program_source("wsgi_host"), json.dumps(config)]
        environment = {**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join(path or ["."])}
        self.process = subprocess.Popen(argv, cwd=workdir, env=environment, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        hello = self._receive(lambda line: isinstance(line, dict) and "loaded" in line)
        if not hello.get("loaded"):
            self.close()
            raise RuntimeError(f"the delivered app could not be loaded: {hello.get('error')}")

    def _receive(self, expected):
        """The host's next JSON line of the `expected` shape: any other line is delivered code writing into its own
        host's output, skipped."""
        deadline = time.monotonic() + self.seconds
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                    raise RuntimeError(f"the delivered app did not answer within {self.seconds:g} s")
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise RuntimeError(f"the delivered app's process ended (exit {self.process.wait()})")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            if expected(answer):
                return answer

    def call(self, path: str, query: str = "", method: str = "GET", body: bytes = b"", content_type: str = "",
             headers: dict[str, str] | None = None) -> Answer:
        request = [path, query, method, base64.b64encode(body).decode(), content_type, headers or {}]
        stdin = self.process.stdin
        if stdin is None:
            raise RuntimeError("the app host has no input")
        stdin.write((json.dumps(request) + "\n").encode())
        stdin.flush()
        status, text, statements = self._receive(
            lambda line: isinstance(line, list) and len(line) == 3 and isinstance(line[0], int)
            and isinstance(line[1], str) and isinstance(line[2], list))
        return Answer(status, text, [sql for sql in statements if isinstance(sql, str)])

    def close(self) -> None:
        self.process.kill()
        self.process.wait()

    def __enter__(self) -> AppHost:
        return self

    def __exit__(self, *_) -> None:
        self.close()

