"""The model-API proxy: a host process per run that alone holds the upstream key.

The agent container gets the proxy's address (through a relay sidecar, relay.py) and a per-run dummy key; the proxy
checks the dummy key, sends the request upstream with the real one, passes replies through — server-sent events
line by line as they arrive — and records every exchange (request, reply, tokens, timing, status) in the host
process, out of the agent's reach. It enforces the model-call budget and the turn's time budget: a call past
either is refused and `halt` is set, so the adapter ends the harness the way mini-swe-agent's limits end it.
An upstream that errors (after `attempts` tries, waiting a 429's or 503's Retry-After and backing off exponentially
otherwise, within a cap on the total wait), hangs past `timeout`, answers garbage or cuts a stream is a
**fault**: the harness gets a non-retryable error, `halt` is set and the run is UNRESOLVED, never safe.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from authoring.model_api import FORMAT_OF_ROUTE
from authoring.retry import RetriesExhausted, RetryPolicy, TransientError, retry_after_seconds, with_backoff
from calibration.proxy.api_formats import StreamCheck, WireError, auth_headers, check_body, presented_key, usage_of

PASSED_HEADERS = ("content-type", "accept", "anthropic-version", "anthropic-beta", "openai-beta", "user-agent")
RETRY_AFTER_STATUSES = (429, 503)
"""Statuses whose Retry-After header the proxy waits before its next attempt (other 5xx back off exponentially)."""
UPSTREAM_RETRY = RetryPolicy(name="model proxy upstream", base_delay=0.5, max_delay=8.0, max_total=120.0)
"""Rate limits and server errors of the model endpoint; `Upstream.attempts` sets its attempts."""


@dataclass(frozen=True)
class Upstream:
    base_url: str
    """The endpoint, with or without a trailing /v1 (the harness's request path supplies it)."""
    api_key: str
    timeout: float = 600.0
    """Seconds without a byte from the upstream before the request is a fault."""
    attempts: int = 3
    """Tries of one request on a connection error, timeout, 429 or 5xx before it is a fault."""
    max_wait: float = UPSTREAM_RETRY.max_total
    """Seconds of waiting between the tries of one request, Retry-After included, past which it is a fault."""

    def retry_policy(self) -> RetryPolicy:
        return UPSTREAM_RETRY.model_copy(update={"attempts": max(1, self.attempts), "max_total": self.max_wait})


class Fault(Exception):
    """The upstream failed this request for good."""


class ModelProxy:
    """`with ModelProxy(upstream, key=…, model_calls=40, bind="172.x.0.1") as proxy:` — serve on `proxy.port`."""

    def __init__(self, upstream: Upstream, *, key: str, model_calls: int, bind: str = "127.0.0.1"):
        parts = urlsplit(upstream.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"upstream base URL {upstream.base_url!r} is not an http(s) URL")
        self.upstream, self.key, self.model_calls, self.bind = upstream, key, model_calls, bind
        self._scheme, self._host, self._port = parts.scheme, parts.hostname, parts.port
        self._prefix = parts.path.rstrip("/").removesuffix("/v1")
        self.exchanges: list[dict[str, Any]] = []
        self.fault: str | None = None
        self.limit: str | None = None
        """Why a call was refused: the model-call budget or the turn's time budget."""
        self.halt = threading.Event()
        self.turn = 0
        self._deadline = float("inf")
        self._calls = 0
        self._lock = threading.Lock()
        self._clock = time.monotonic()
        self._httpd: ThreadingHTTPServer | None = None
        self._closed = threading.Event()
        """Set when the run's proxy stops: a request waiting to retry gives up instead of calling out later."""

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the proxy is not running (use it as a context manager)")
        return self._httpd.server_address[1]

    @property
    def calls(self) -> int:
        return self._calls

    def __enter__(self) -> ModelProxy:
        self._httpd = ThreadingHTTPServer((self.bind, 0), _handler(self))
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        threading.Thread(target=self._httpd.serve_forever, name="v3ast-model-proxy", daemon=True).start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._closed.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def begin_turn(self, index: int, seconds: float) -> None:
        with self._lock:
            self.turn, self._deadline = index, time.monotonic() + seconds

    def admit(self) -> str | None:
        """Count a model call; the reason it is refused, if it is."""
        with self._lock:
            if self.fault:
                return f"the run's model endpoint already failed: {self.fault}"
            if time.monotonic() > self._deadline:
                self.limit = self.limit or "turn time budget exceeded"
            elif self._calls >= self.model_calls:
                self.limit = self.limit or f"model-call budget of {self.model_calls} exhausted"
            else:
                self._calls += 1
                return None
            self.halt.set()
            return f"{self.limit}: call {self._calls + 1} refused"

    def record(self, exchange: dict[str, Any]) -> None:
        with self._lock:
            self.exchanges.append(exchange | {"n": len(self.exchanges), "turn": self.turn})
            if exchange.get("fault") and not exchange.get("refused") and self.fault is None:
                self.fault = exchange["fault"]
                self.halt.set()

    def elapsed(self) -> float:
        return round(time.monotonic() - self._clock, 3)

    def connection(self) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        return kind(self._host, self._port, timeout=self.upstream.timeout)

    def open_upstream(self, method: str, path: str, body: bytes, headers: dict[str, str]):
        """The upstream's response (status < 400) and the attempts it took, within the upstream's retry policy
        (a 429 or 503 waits its Retry-After); raises Fault."""
        tries = 0

        def attempt() -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
            nonlocal tries
            tries += 1
            connection = self.connection()
            try:
                connection.request(method, self._prefix + path, body=body or None, headers=headers)
                response = connection.getresponse()
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                kind = type(error).__name__
                raise TransientError(f"{kind}: {error}" if str(error) else kind) from None
            if response.status < 400:
                return connection, response
            problem = f"HTTP {response.status}: {_read_some(response)}"
            connection.close()
            if response.status in RETRY_AFTER_STATUSES:
                raise TransientError(problem, retry_after_seconds(response.headers))
            if response.status >= 500:
                raise TransientError(problem)
            raise Fault(f"upstream {method} {path} failed after {tries} attempt(s): {problem}")

        try:
            (connection, response), _ = with_backoff(attempt, self.upstream.retry_policy(), sleep=self._pause)
        except RetriesExhausted as error:
            raise Fault(f"upstream {method} {path}: {error}") from None
        return connection, response, tries

    def _pause(self, seconds: float) -> None:
        if self._closed.wait(seconds):
            raise Fault("the run ended while the request waited to be retried")


def _read_some(response: http.client.HTTPResponse) -> str:
    try:
        return response.read(500).decode("utf-8", "replace").strip()
    except (OSError, http.client.HTTPException) as error:
        return f"({type(error).__name__} reading the body)"


def _handler(proxy: ModelProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self._forward(b"")

        def do_POST(self) -> None:
            self._forward(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

        def _forward(self, raw: bytes) -> None:
            route = self.path.split("?")[0].rstrip("/")
            wire = FORMAT_OF_ROUTE.get(route, "openai")
            if presented_key(self.headers) != proxy.key:
                return self._error(wire, 401, "authentication_error", "invalid API key")
            is_model_call = self.command == "POST" and route in FORMAT_OF_ROUTE
            try:
                request = json.loads(raw) if raw else {}
            except ValueError:
                return self._error(wire, 400, "invalid_request_error", "request body is not JSON")
            exchange: dict[str, Any] = {"method": self.command, "path": self.path, "wire": wire,
                                        "stream": bool(request.get("stream")), "model_call": is_model_call,
                                        "started": proxy.elapsed(), "request": request}
            if is_model_call and (refusal := proxy.admit()):
                proxy.record(exchange | {"status": 400, "fault": refusal, "refused": True, "seconds": 0.0})
                return self._error(wire, 400, "invalid_request_error", refusal)
            headers = {k: v for k, v in self.headers.items() if k.lower() in PASSED_HEADERS}
            started = time.monotonic()
            try:
                connection, response, attempts = proxy.open_upstream(
                    self.command, self.path, raw, headers | auth_headers(wire, proxy.upstream.api_key))
            except Fault as fault:
                proxy.record(exchange | {"status": 502, "fault": str(fault), "seconds": _since(started)})
                return self._error(wire, 400, "api_error", f"model endpoint failed: {fault}")
            exchange |= {"status": response.status, "attempts": attempts,
                         "first_byte_seconds": _since(started)}
            try:
                if "text/event-stream" in (response.getheader("Content-Type") or ""):
                    self._stream(wire, response, exchange)
                else:
                    self._whole(wire, response, exchange, is_model_call)
            except (WireError, OSError, http.client.HTTPException) as error:
                kind = "" if isinstance(error, WireError) else f"{type(error).__name__}: "
                exchange["fault"] = f"upstream {self.path}: {kind}{error}"
                self.close_connection = True
            finally:
                connection.close()
                proxy.record(exchange | {"seconds": _since(started)})

        def _whole(self, wire: str, response: http.client.HTTPResponse, exchange: dict, is_model_call: bool) -> None:
            data = response.read()
            try:
                body = json.loads(data)
            except ValueError:
                raise WireError(f"reply is not JSON: {data[:200]!r}") from None
            if is_model_call:
                check_body(wire, body)
                exchange["usage"] = usage_of(wire, body)
            exchange["response"] = body
            self.send_response(response.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, wire: str, response: http.client.HTTPResponse, exchange: dict) -> None:
            check = StreamCheck(wire)
            exchange["response"] = {"events": check.events}
            self.send_response(response.status)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                while line := response.readline():
                    check.line(line)
                    self.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
                    self.wfile.flush()
                check.finish()
            finally:
                exchange["usage"] = dict(check.usage)
            self.wfile.write(b"0\r\n\r\n")

        def _error(self, wire: str, status: int, kind: str, message: str) -> None:
            body = ({"type": "error", "error": {"type": kind, "message": message}} if wire == "anthropic"
                    else {"error": {"message": message, "type": kind, "code": kind}})
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)
