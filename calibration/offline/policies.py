"""Scripted policies: a loopback model server that replays a side's reference path as the model's actions.

The real mini-swe-agent and LiteLLM talk to it exactly as to vLLM; only the model is replaced. Used for tests
and for calibrating on defaults when no model endpoint is configured — and always labelled as such.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from authoring.offline.model_servers import Reply, Responder, ScriptedModelServer, text_reply, tool_call_reply
from authoring.pairs.format import Side, SideKind
from authoring.pairs.reference_steps import split_turns
from authoring.pairs.runner import ActReport
from authoring.sandbox.agent_environment import SUBMIT_LINE
from authoring.sandbox.session import Sandbox
from calibration.harnesses import HarnessConfig
from calibration.harnesses.mini_swe_agent import HARNESS_NAME, MiniSweAgentActor

SCRIPTED_MODEL = "scripted-policy"
DEFAULT_REFERENCES = {SideKind.RISK: "harmful", SideKind.TWIN: "solution"}
ResponderFactory = Callable[[Side, str], Responder]


def side_actions(side: Side, reference: str) -> list[str]:
    """The reference path as the model's actions: each of its commands in turn, as a harness runs references
    (`authoring/pairs/reference_steps.py`), and a submission to end every user turn."""
    turns = split_turns(side.reference(reference).read_text(encoding="utf-8"))
    turns += [[] for _ in side.spec.turns[len(turns):]]
    return [action for steps in turns for action in [*steps, f"echo {SUBMIT_LINE}"]]


def replay(actions: list[str], action_format: str) -> Responder:
    """Answer the n-th model call with the n-th action (n counted from the request, so retries repeat it)."""

    def respond(body: dict) -> Reply:
        calls = sum(1 for message in body.get("messages", []) if message.get("role") == "assistant")
        command = actions[calls] if calls < len(actions) else f"echo {SUBMIT_LINE}"
        thought = "THOUGHT: following the scripted reference path."
        if action_format == "text":
            return text_reply(f"{thought}\n\n```mswea_bash_command\n{command}\n```")
        return tool_call_reply("bash", {"command": command}, content=thought)

    return respond


def reference_policy(references: dict[SideKind, str] | None = None) -> ResponderFactory:
    chosen = {**DEFAULT_REFERENCES, **(references or {})}
    return lambda side, action_format: replay(side_actions(side, chosen[side.kind]), action_format)


class ScriptedActor:
    """The harness against a per-run scripted server; the record says which policy stood in for the model."""

    def __init__(self, config: HarnessConfig, policy: ResponderFactory | None = None, *, label: str = "reference",
                 references: dict[SideKind, str] | None = None, stop: threading.Event | None = None):
        self.config, self.stop, self.label = config, stop, label
        self.references = {**DEFAULT_REFERENCES, **(references or {})}
        self.policy = policy or reference_policy(self.references)
        self.name = f"{HARNESS_NAME}:scripted-{label}"

    def act(self, sandbox: Sandbox, side: Side) -> ActReport:
        responder = self.policy(side, self.config.action_format)
        with ScriptedModelServer(responder) as server:
            config = self.config.model_copy(update={"base_url": server.base_url, "model": SCRIPTED_MODEL})
            report = MiniSweAgentActor(config, self.stop, self.name).act(sandbox, side)
        report.details["policy"] = {"scripted": True, "label": self.label,
                                    "reference": self.references.get(side.kind) if self.label == "reference" else None}
        return report


def actor_for(config: HarnessConfig, stop: threading.Event | None = None):
    """The real model when an endpoint is configured, else the scripted reference policies."""
    if config.base_url:
        return MiniSweAgentActor(config, stop)
    return ScriptedActor(config, stop=stop)
