"""Record and replay of every HTTP exchange with a model API, keyed by a hash of the request.

The cassette sits at the transport under the official SDK, so a replay runs the same SDK
parsing as the live call. Request headers (keys) are never stored; only a response's
content type and Retry-After are kept. Identical requests replay their answers in order.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict, deque
from pathlib import Path
from typing import Literal

import httpx2

from authoring.atomic import write_atomically
from authoring.errors import BadInput, MissingFile, V3astError

CASSETTE_VERSION = 1
KEPT_RESPONSE_HEADERS = ("content-type", "retry-after", "retry-after-ms")
_ENCODING_HEADERS = {"content-encoding", "content-length", "transfer-encoding"}


class CassetteMiss(V3astError, LookupError):
    pass


def request_key(method: str, path: str, body: bytes) -> str:
    try:
        canonical = json.dumps(json.loads(body or b"null"), sort_keys=True, separators=(",", ":"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        canonical = body.decode("latin-1")
    return hashlib.sha256(f"{method} {path}\n{canonical}".encode()).hexdigest()


class Cassette:
    def __init__(self, path: Path, mode: Literal["record", "replay"]):
        self.path = Path(path)
        self.mode = mode
        self._lock = threading.Lock()
        self.interactions: list[dict] = []
        self._queues: dict[str, deque[dict]] = defaultdict(deque)
        if mode == "replay":
            if not self.path.exists():
                raise MissingFile(f"no cassette at {self.path}")
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") != CASSETTE_VERSION:
                raise BadInput(f"{self.path}: cassette version {data.get('version')!r} (expected {CASSETTE_VERSION})")
            for interaction in data["interactions"]:
                self._queues[interaction["key"]].append(interaction["response"])
        elif mode != "record":
            raise BadInput(f"unknown cassette mode {mode!r} (available: record, replay)")

    def transport(self) -> httpx2.BaseTransport:
        return _CassetteTransport(self)

    def client(self, timeout: float) -> httpx2.Client:
        return httpx2.Client(transport=self.transport(), timeout=timeout)

    def next_response(self, key: str, method: str, path: str) -> dict:
        with self._lock:
            queue = self._queues.get(key)
            if not queue:
                raise CassetteMiss(f"{self.path}: no recorded response for {method} {path} (request {key[:12]})")
            return queue.popleft()

    def add(self, key: str, request: dict, response: dict) -> None:
        with self._lock:
            self.interactions.append({"key": key, "request": request, "response": response})
            self._save()

    def _save(self) -> None:
        text = json.dumps({"version": CASSETTE_VERSION, "interactions": self.interactions}, indent=1)
        write_atomically(self.path, text)


class _CassetteTransport(httpx2.BaseTransport):
    def __init__(self, cassette: Cassette):
        self.cassette = cassette
        self.inner = httpx2.HTTPTransport() if cassette.mode == "record" else None

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        body = request.read()
        key = request_key(request.method, request.url.path, body)
        if self.inner is None:
            recorded = self.cassette.next_response(key, request.method, request.url.path)
            return httpx2.Response(recorded["status"], headers=recorded["headers"],
                                   content=recorded["body"].encode(), request=request)
        response = self.inner.handle_request(request)
        content = response.read()
        headers = {name: response.headers[name] for name in KEPT_RESPONSE_HEADERS if name in response.headers}
        self.cassette.add(
            key,
            {"method": request.method, "path": request.url.path, "body": _json_or_text(body)},
            {"status": response.status_code, "headers": headers, "body": content.decode("utf-8", "replace")},
        )
        passed = [(k, v) for k, v in response.headers.items() if k.lower() not in _ENCODING_HEADERS]
        return httpx2.Response(response.status_code, headers=passed, content=content, request=request)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


def _json_or_text(body: bytes) -> object:
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return body.decode("latin-1")
