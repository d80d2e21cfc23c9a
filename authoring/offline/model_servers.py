"""Loopback HTTP servers that speak the OpenAI chat-completions, OpenAI responses and Anthropic messages wire
formats, as one JSON body or (with `streaming=True`) as the providers' server-sent events.

A `responder` turns each received JSON body into a `Reply`; the server wraps it exactly as the
real APIs do, so the official SDKs, LiteLLM and the native harnesses (Claude Code, Codex) parse it unchanged.
For tests and offline demos.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from authoring.model_api import API_FORMATS, API_ROUTES, ApiFormat

_NO_STRUCTURE = object()


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]
    id: str = field(default_factory=lambda: f"call_{uuid.uuid4().hex[:24]}")


@dataclass(frozen=True)
class Completion:
    """A normal answer: text, tool calls, or a structured object (JSON text / forced tool input)."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    structured: Any = _NO_STRUCTURE
    finish_reason: str | None = None
    """Overrides the natural finish reason (e.g. `length` to simulate truncation)."""


@dataclass(frozen=True)
class ErrorReply:
    status: int = 500
    message: str = "scripted server error"
    retry_after: float | None = None
    """Seconds, sent as the Retry-After header."""


@dataclass(frozen=True)
class Hang:
    """Send nothing for `seconds`, then drop the connection — a client-side timeout."""

    seconds: float


@dataclass(frozen=True)
class RawReply:
    """Exactly these bytes with this status — e.g. a 200 whose body is not the wire format (garbage)."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"


@dataclass(frozen=True)
class CutStream:
    """Stream the reply's events but stop after `events` of them and drop the connection (no terminal event)."""

    reply: Completion
    events: int = 1


Reply = Completion | ErrorReply | Hang | RawReply | CutStream
Responder = Callable[[dict], Reply]


def text_reply(content: str) -> Completion:
    return Completion(content=content)


def tool_call_reply(name: str, arguments: dict[str, Any], content: str | None = None) -> Completion:
    return Completion(content=content, tool_calls=(ToolCall(name, arguments),))


def json_reply(obj: Any) -> Completion:
    """Structured output: JSON message content (OpenAI), or the input of the forced tool (Anthropic)."""
    return Completion(structured=obj)


class ScriptedModelServer:
    """`with ScriptedModelServer(responder) as server:` — point an SDK at `server.base_url`."""

    def __init__(self, responder: Responder, wire: ApiFormat = "openai", latency: float = 0.0, streaming: bool = False):
        if wire not in API_FORMATS:
            raise ValueError(f"unknown wire format {wire!r} (available: {', '.join(API_FORMATS)})")
        self.responder = responder
        self.wire = wire
        self.latency = latency
        self.streaming = streaming
        """Answer `stream: true` requests with server-sent events (otherwise they are refused with a 400)."""
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []
        """The headers of each recorded request, in order."""
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._address: tuple[str, int] | None = None

    @property
    def base_url(self) -> str:
        if self._address is None:
            raise RuntimeError("the server was never started (use it as a context manager)")
        host, port = self._address
        return f"http://{host}:{port}" if self.wire == "anthropic" else f"http://{host}:{port}/v1"

    def __enter__(self) -> ScriptedModelServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._address = self._httpd.server_address[:2]
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="scripted-model-server", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def record(self, body: dict, headers: dict[str, str] | None = None) -> None:
        with self._lock:
            self.requests.append(body)
            self.headers.append(dict(headers or {}))


def _handler_for(server: ScriptedModelServer) -> type[BaseHTTPRequestHandler]:
    path = API_ROUTES[server.wire]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.split("?")[0].rstrip("/") != path:
                return self._send_error(ErrorReply(404, f"no route {self.path} (this server serves POST {path})"))
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError as error:
                return self._send_error(ErrorReply(400, f"request body is not JSON: {error}"))
            server.record(body, dict(self.headers.items()))
            if body.get("stream") and not server.streaming:
                return self._send_error(ErrorReply(400, "stream: true is not supported by ScriptedModelServer"))
            if server.latency:
                time.sleep(server.latency)
            try:
                reply = server.responder(body)
            except Exception as error:  # the responder is test code: report its failure to the client
                reply = ErrorReply(500, f"responder failed: {type(error).__name__}: {error}")
            if isinstance(reply, Hang):
                time.sleep(reply.seconds)
                self.close_connection = True
                return None
            if isinstance(reply, ErrorReply):
                return self._send_error(reply)
            if isinstance(reply, RawReply):
                return self._send_bytes(reply.status, reply.body, reply.content_type)
            completion = reply.reply if isinstance(reply, CutStream) else reply
            wrapped = WRAPPERS[server.wire](body, completion)
            if not body.get("stream"):
                return self._send_json(200, wrapped)
            events = STREAMERS[server.wire](wrapped)
            self._send_events(events[:reply.events] if isinstance(reply, CutStream) else events,
                              complete=not isinstance(reply, CutStream))

        def _send_events(self, events: list[tuple[str | None, Any]], complete: bool) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for name, data in events:
                text = data if isinstance(data, str) else json.dumps(data)
                frame = (f"event: {name}\n" if name else "") + f"data: {text}\n\n"
                self._chunk(frame.encode())
            if complete:
                self.wfile.write(b"0\r\n\r\n")
            self.close_connection = True

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def do_GET(self) -> None:
            self._send_error(ErrorReply(404, f"no route GET {self.path} (this server serves POST {path})"))

        def _send_error(self, reply: ErrorReply) -> None:
            body = _anthropic_error(reply) if server.wire == "anthropic" else _openai_error(reply)
            headers = {} if reply.retry_after is None else {"Retry-After": f"{reply.retry_after:g}"}
            self._send_json(reply.status, body, headers)

        def _send_json(self, status: int, body: dict, headers: dict[str, str] | None = None) -> None:
            self._send_bytes(status, json.dumps(body).encode(), "application/json", headers)

        def _send_bytes(self, status: int, data: bytes, content_type: str,
                        headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _tokens(value: Any) -> int:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return max(1, len(text) // 4)


def _openai_completion(request: dict, reply: Completion) -> dict:
    content = reply.content
    if reply.structured is not _NO_STRUCTURE:
        content = json.dumps(reply.structured)
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
            for c in reply.tool_calls
        ]
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    prompt, completion = _tokens(request.get("messages", [])), _tokens(message)
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "scripted"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        "system_fingerprint": None,
    }


def _anthropic_message(request: dict, reply: Completion) -> dict:
    blocks: list[dict[str, Any]] = []
    calls = list(reply.tool_calls)
    if reply.structured is not _NO_STRUCTURE:
        forced = (request.get("tool_choice") or {}).get("name")
        if forced:
            calls.append(ToolCall(forced, reply.structured))
        else:
            blocks.append({"type": "text", "text": json.dumps(reply.structured)})
    if reply.content:
        blocks.insert(0, {"type": "text", "text": reply.content})
    for call in calls:
        blocks.append({"type": "tool_use", "id": f"toolu_{call.id.removeprefix('call_')}", "name": call.name,
                       "input": call.arguments})
    finish = reply.finish_reason or ("tool_use" if calls else "end_turn")
    return {
        "id": f"msg_{uuid.uuid4().hex[:24]}",
        "type": "message",
        "role": "assistant",
        "model": request.get("model", "scripted"),
        "content": blocks,
        "stop_reason": finish,
        "stop_sequence": None,
        "usage": {
            "input_tokens": _tokens([request.get("system", ""), request.get("messages", [])]),
            "output_tokens": _tokens(blocks),
        },
    }


_OPENAI_ERROR_TYPES = {400: "invalid_request_error", 404: "not_found_error", 429: "rate_limit_exceeded"}
_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
    429: "rate_limit_error", 500: "api_error", 529: "overloaded_error",
}


def _openai_error(reply: ErrorReply) -> dict:
    kind = _OPENAI_ERROR_TYPES.get(reply.status, "server_error")
    return {"error": {"message": reply.message, "type": kind, "param": None, "code": kind}}


def _anthropic_error(reply: ErrorReply) -> dict:
    kind = _ANTHROPIC_ERROR_TYPES.get(reply.status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": reply.message}}


def _responses_output(request: dict, reply: Completion) -> dict:
    output: list[dict[str, Any]] = []
    text = json.dumps(reply.structured) if reply.structured is not _NO_STRUCTURE else reply.content
    if text:
        output.append({"type": "message", "id": f"msg_{uuid.uuid4().hex[:24]}", "status": "completed",
                       "role": "assistant", "content": [{"type": "output_text", "text": text, "annotations": []}]})
    for call in reply.tool_calls:
        output.append({"type": "function_call", "id": f"fc_{call.id.removeprefix('call_')}", "call_id": call.id,
                       "name": call.name, "arguments": json.dumps(call.arguments), "status": "completed"})
    prompt, completion = _tokens([request.get("instructions", ""), request.get("input", "")]), _tokens(output)
    return {
        "id": f"resp_{uuid.uuid4().hex[:24]}",
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": request.get("model", "scripted"),
        "output": output,
        "usage": {"input_tokens": prompt, "output_tokens": completion, "total_tokens": prompt + completion,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }


def _openai_events(completion: dict) -> list[tuple[str | None, Any]]:
    message, choice = completion["choices"][0]["message"], completion["choices"][0]
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    if message.get("tool_calls"):
        delta["tool_calls"] = [dict(call, index=i) for i, call in enumerate(message["tool_calls"])]
    base = {k: completion[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    return [(None, base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}),
            (None, base | {"choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]}),
            (None, base | {"choices": [], "usage": completion["usage"]}),
            (None, "[DONE]")]


def _anthropic_events(message: dict) -> list[tuple[str | None, Any]]:
    start = dict(message, content=[], stop_reason=None, usage=dict(message["usage"], output_tokens=1))
    events: list[tuple[str | None, Any]] = [("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            opening, delta = dict(block, text=""), {"type": "text_delta", "text": block["text"]}
        else:
            opening, delta = dict(block, input={}), {"type": "input_json_delta",
                                                     "partial_json": json.dumps(block["input"])}
        events += [("content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}),
                   ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
                   ("content_block_stop", {"type": "content_block_stop", "index": index})]
    return events + [("message_delta", {"type": "message_delta",
                                        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                                        "usage": {"output_tokens": message["usage"]["output_tokens"]}}),
                     ("message_stop", {"type": "message_stop"})]


def _responses_events(response: dict) -> list[tuple[str | None, Any]]:
    pending = dict(response, status="in_progress", output=[], usage=None)
    frames: list[dict[str, Any]] = [{"type": "response.created", "response": pending},
                                    {"type": "response.in_progress", "response": pending}]
    for index, item in enumerate(response["output"]):
        frames.append({"type": "response.output_item.added", "output_index": index,
                       "item": dict(item, status="in_progress")})
        if item["type"] == "message":
            text = item["content"][0]["text"]
            frames.append({"type": "response.output_text.delta", "item_id": item["id"], "output_index": index,
                           "content_index": 0, "delta": text})
            frames.append({"type": "response.output_text.done", "item_id": item["id"], "output_index": index,
                           "content_index": 0, "text": text})
        frames.append({"type": "response.output_item.done", "output_index": index, "item": item})
    frames.append({"type": "response.completed", "response": response})
    return [(frame["type"], frame | {"sequence_number": n}) for n, frame in enumerate(frames)]


WRAPPERS: dict[str, Callable[[dict, Completion], dict]] = {
    "openai": _openai_completion, "anthropic": _anthropic_message, "responses": _responses_output}
STREAMERS: dict[str, Callable[[dict], list[tuple[str | None, Any]]]] = {
    "openai": _openai_events, "anthropic": _anthropic_events, "responses": _responses_events}
