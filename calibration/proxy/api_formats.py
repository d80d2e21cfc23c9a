"""What the proxy must know of each model-API format beyond its route (`authoring/model_api.py`): how the key is sent,
when a reply is complete, where token counts are, and where a transcript's tool calls and their outputs are. (Named
for the API formats so as not to be taken for `authoring/leak_decoding.py`, which decodes what a leaked request
carried.)"""

from __future__ import annotations

import json
from typing import Any


class WireError(ValueError):
    """The upstream's reply is not the wire format (garbage), or its stream ended without its terminal event."""


def auth_headers(wire: str, key: str) -> dict[str, str]:
    return {"x-api-key": key} if wire == "anthropic" else {"Authorization": f"Bearer {key}"}


def presented_key(headers: Any) -> str:
    bearer = headers.get("Authorization") or ""
    return headers.get("x-api-key") or (bearer[7:] if bearer.lower().startswith("bearer ") else "")


def check_body(wire: str, body: Any) -> None:
    shape = {"anthropic": "content", "responses": "output", "openai": "choices"}[wire]
    if not isinstance(body, dict) or not isinstance(body.get(shape), list):
        raise WireError(f"upstream reply has no {shape!r} list: {str(body)[:200]}")


def usage_of(wire: str, body: dict[str, Any]) -> dict[str, int]:
    counts = (body.get("response") or body).get("usage") or {} if wire == "responses" else body.get("usage") or {}
    if wire == "anthropic":
        prompt = sum(counts.get(k) or 0 for k in ("input_tokens", "cache_creation_input_tokens",
                                                  "cache_read_input_tokens"))
        return {"prompt_tokens": prompt, "completion_tokens": counts.get("output_tokens") or 0}
    if wire == "responses":
        return {"prompt_tokens": counts.get("input_tokens") or 0, "completion_tokens": counts.get("output_tokens") or 0}
    return {"prompt_tokens": counts.get("prompt_tokens") or 0,
            "completion_tokens": counts.get("completion_tokens") or 0}


class StreamCheck:
    """Reads a server-sent event stream as it passes: every data line must be JSON, an error event is a fault,
    and the stream is complete only after the wire's terminal event."""

    def __init__(self, wire: str):
        self.wire = wire
        self.events: list[Any] = []
        self.complete = False
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0}

    def line(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not text.startswith("data:"):
            return
        data = text[5:].strip()
        if data == "[DONE]":
            self.complete = self.complete or self.wire == "openai"
            return
        try:
            event = json.loads(data)
        except ValueError:
            raise WireError(f"stream event is not JSON: {data[:200]}") from None
        self.events.append(event)
        self._read(event)

    def _read(self, event: Any) -> None:
        if not isinstance(event, dict):
            raise WireError(f"stream event is not an object: {str(event)[:200]}")
        kind = event.get("type", "")
        if kind == "error" or kind == "response.failed" or (self.wire == "openai" and event.get("error")):
            raise WireError(f"upstream error in the stream: {json.dumps(event)[:300]}")
        if self.wire == "anthropic":
            if kind == "message_start":
                self.usage = usage_of("anthropic", event.get("message") or {})
            elif kind == "message_delta":
                self.usage["completion_tokens"] = (event.get("usage") or {}).get("output_tokens") or 0
            self.complete = self.complete or kind == "message_stop"
        elif self.wire == "responses":
            if kind in ("response.completed", "response.incomplete"):
                self.usage, self.complete = usage_of("responses", event), True
        elif event.get("usage"):
            self.usage = usage_of("openai", event)

    def finish(self) -> None:
        if not self.complete:
            raise WireError(f"the stream ended before its terminal event ({len(self.events)} event(s) received)")


def tool_calls(wire: str, reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool calls of one model reply (a body, or a stream's events), as {id, name, arguments}."""
    if "events" in reply:
        return _streamed_calls(wire, reply["events"])
    if wire == "anthropic":
        return [{"id": b.get("id"), "name": b.get("name"), "arguments": b.get("input")}
                for b in reply.get("content", []) if b.get("type") == "tool_use"]
    if wire == "responses":
        return [{"id": i.get("call_id"), "name": i.get("name"), "arguments": _loads(i.get("arguments"))}
                for i in reply.get("output", []) if i.get("type") == "function_call"]
    message = ((reply.get("choices") or [{}])[0]).get("message") or {}
    return [{"id": c.get("id"), "name": c["function"].get("name"), "arguments": _loads(c["function"].get("arguments"))}
            for c in message.get("tool_calls") or []]


def _streamed_calls(wire: str, events: list[dict]) -> list[dict[str, Any]]:
    if wire == "responses":
        items = [e.get("item") or {} for e in events if e.get("type") == "response.output_item.done"]
        return [{"id": i.get("call_id"), "name": i.get("name"), "arguments": _loads(i.get("arguments"))}
                for i in items if i.get("type") == "function_call"]
    if wire == "anthropic":
        blocks: dict[int, dict[str, Any]] = {}
        for event in events:
            if event.get("type") == "content_block_start" and event["content_block"].get("type") == "tool_use":
                block = event["content_block"]
                blocks[event["index"]] = {"id": block.get("id"), "name": block.get("name"), "json": ""}
            elif event.get("type") == "content_block_delta" and event.get("index") in blocks:
                blocks[event["index"]]["json"] += (event.get("delta") or {}).get("partial_json", "")
        return [{"id": b["id"], "name": b["name"], "arguments": _loads(b["json"] or "{}")} for b in blocks.values()]
    calls: dict[int, dict[str, Any]] = {}
    for event in events:
        for choice in event.get("choices") or []:
            for call in (choice.get("delta") or {}).get("tool_calls") or []:
                slot = calls.setdefault(call.get("index", 0), {"id": None, "name": "", "json": ""})
                slot["id"] = call.get("id") or slot["id"]
                slot["name"] += (call.get("function") or {}).get("name") or ""
                slot["json"] += (call.get("function") or {}).get("arguments") or ""
    return [{"id": c["id"], "name": c["name"], "arguments": _loads(c["json"] or "{}")} for c in calls.values()]


def tool_outputs(wire: str, request: dict[str, Any]) -> dict[str, str]:
    """Tool results a request carries back to the model, by call id."""
    found: dict[str, str] = {}
    if wire == "anthropic":
        for message in request.get("messages", []):
            for block in message.get("content") if isinstance(message.get("content"), list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    found[block.get("tool_use_id")] = _text(block.get("content"))
    elif wire == "responses":
        for item in request.get("input") if isinstance(request.get("input"), list) else []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                found[item.get("call_id")] = _text(item.get("output"))
    else:
        for message in request.get("messages", []):
            if message.get("role") == "tool":
                found[message.get("tool_call_id")] = _text(message.get("content"))
    return found


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return "" if content is None else json.dumps(content)


def _loads(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text
