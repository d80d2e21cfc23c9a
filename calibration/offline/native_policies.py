"""Scripted policies for native harnesses: a streaming loopback server in the harness's wire format replays a
side's reference path as tool calls of whatever shell tool the harness offers, one paragraph per call, then
ends each user turn with a short answer. The harness, its proxy and its container are real; only the model is not."""

from __future__ import annotations

import threading
from collections.abc import Callable

from authoring.offline.model_servers import Reply, Responder, ScriptedModelServer, text_reply, tool_call_reply
from authoring.pairs.format import Side, SideKind
from authoring.pairs.reference_steps import split_turns
from authoring.pairs.runner import ActReport
from authoring.sandbox.session import Sandbox
from calibration.harnesses.base import HarnessConfig, NativeHarness
from calibration.harnesses.native import NativeHarnessActor
from calibration.offline.policies import DEFAULT_REFERENCES, SCRIPTED_MODEL

TURN_DONE = "Done."
REFUSAL = "I can't help with that: it would be unsafe."
Action = str | None
"""A shell command, or None for the text answer that ends a user turn."""
NativeResponderFactory = Callable[[Side], Responder]


def reference_actions(side: Side, reference: str) -> list[Action]:
    actions: list[Action] = []
    for steps in split_turns(side.reference(reference).read_text(encoding="utf-8")):
        actions += [*steps, None]
    return actions


def shell_call(tools: list[str], command: str) -> Reply:
    if "exec_command" in tools:
        return tool_call_reply("exec_command", {"cmd": command})
    if "shell" in tools:
        return tool_call_reply("shell", {"command": ["bash", "-lc", command]})
    name = "Bash" if "Bash" in tools else "bash"
    return tool_call_reply(name, {"command": command, "description": "scripted step"})


def answers_so_far(body: dict) -> int:
    """How many model answers the conversation already holds (so a retried request gets the same answer)."""
    history = body.get("messages") or body.get("input") or []
    if not isinstance(history, list):
        return 0
    return sum(1 for item in history if isinstance(item, dict) and (
        item.get("role") == "assistant" or item.get("type") == "function_call"))


def tool_names(body: dict) -> list[str]:
    return [str(t.get("name") or (t.get("function") or {}).get("name")) for t in body.get("tools") or []]


def replay_actions(actions: list[Action]) -> Responder:
    def respond(body: dict) -> Reply:
        tools = tool_names(body)
        position = answers_so_far(body)
        if not tools or position >= len(actions) or actions[position] is None:
            return text_reply(TURN_DONE)
        return shell_call(tools, actions[position])

    return respond


def reference_policy(references: dict[SideKind, str] | None = None) -> NativeResponderFactory:
    chosen = {**DEFAULT_REFERENCES, **(references or {})}
    return lambda side: replay_actions(reference_actions(side, chosen[side.kind]))


def refusal_policy() -> NativeResponderFactory:
    return lambda side: (lambda body: text_reply(REFUSAL))


class NativeScriptedActor:
    """The native harness against a per-run scripted upstream; the record says which policy stood in."""

    def __init__(self, harness: NativeHarness, config: HarnessConfig, policy: NativeResponderFactory | None = None,
                 *, label: str = "reference", references: dict[SideKind, str] | None = None,
                 stop: threading.Event | None = None):
        self.harness, self.config, self.stop, self.label = harness, config, stop, label
        self.references = {**DEFAULT_REFERENCES, **(references or {})}
        self.policy = policy or reference_policy(self.references)
        self.name = f"{harness.name}:scripted-{label}"
        self.server: ScriptedModelServer | None = None

    def act(self, sandbox: Sandbox, side: Side) -> ActReport:
        with ScriptedModelServer(self.policy(side), wire=self.harness.wire, streaming=True) as server:
            self.server = server
            config = self.config.model_copy(update={"base_url": server.base_url, "model": SCRIPTED_MODEL})
            report = NativeHarnessActor(self.harness, config, self.stop, self.name).act(sandbox, side)
        report.details["policy"] = {"scripted": True, "label": self.label,
                                    "reference": self.references.get(side.kind) if self.label == "reference" else None}
        return report
