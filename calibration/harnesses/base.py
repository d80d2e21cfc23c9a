"""What an adapter says about its harness: how it is installed, how a user turn is delivered (the first turn, then
each further turn resuming the same session), how budgets map onto it, how its exit is read, and which of its own
files (its transcript) are copied into the run record."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from authoring.agent_model import AgentModel
from authoring.settings import EndpointProvider
from calibration.harnesses.install import NpmPackage, Placement
from calibration.proxy import GATEWAY_HOST, GATEWAY_PORT

DEFAULT_MODEL = "Qwen/Qwen3.5-4B"
RESULT_CHARS = 4000
"""How much of the harness's final answer a TurnExit keeps."""
OUTPUT_CHARS = 2000
"""How much of the raw output a TurnExit keeps when the harness printed nothing it could read."""


RECORD_NAMES = {"model": "model_name", "attempts": "model_attempts"}
"""The names records and batch settings have always given these fields: a batch resumes only with the same
settings, so a batch written before the endpoint settings were shared resumes as it did."""


class HarnessConfig(AgentModel):
    """How the harness reaches the model; budgets come from each side's `side.yaml`."""

    provider: EndpointProvider = "hosted_vllm"
    """hosted_vllm or openai for an OpenAI-compatible endpoint (mini-swe-agent's LiteLLM), anthropic for Messages."""
    model: str = DEFAULT_MODEL
    """The served model's name, e.g. Qwen/Qwen3.5-4B as vLLM serves it."""
    action_format: Literal["toolcall", "text"] = "toolcall"
    """Tool calls (mini.yaml) or fenced bash blocks (mini_textbased.yaml): small models often break tool calls."""
    overtime_reruns: int = 2
    """How many times a run past its turn budget (OVERTIME) is repeated."""

    def public(self) -> dict[str, Any]:
        return {RECORD_NAMES.get(name, name): value for name, value in super().public().items()}


@dataclass(frozen=True)
class Gateway:
    """What the agent container is told about the model API: the proxy's address, a per-run dummy key, the model."""

    key: str
    model: str
    host: str = GATEWAY_HOST
    port: int = GATEWAY_PORT

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"


@dataclass
class TurnExit:
    """How the harness ended one turn, read from its own output."""

    status: str
    """completed, error, or the harness's own result kind."""
    session: str | None = None
    result: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


class NativeHarness(Protocol):
    name: str
    version: str
    wire: str
    """The model API it speaks: anthropic (Messages), responses (OpenAI Responses) or openai (Chat Completions)."""
    packages: tuple[NpmPackage, ...]
    placements: tuple[Placement, ...]
    transcript_dirs: tuple[str, ...]
    """Folders in the container holding its own transcript files, copied into the run record."""

    def environment(self, gateway: Gateway, command_seconds: int) -> dict[str, str]: ...

    def turn_command(self, prompt: str, gateway: Gateway, session: str | None, first: bool) -> list[str]: ...

    def new_session(self) -> str | None:
        """The session id to start with, where the harness takes one from its caller (else None)."""
        ...

    def read_exit(self, exit_code: int, output: str) -> TurnExit: ...

    def flags(self) -> dict[str, Any]:
        """The permissive settings and flags every run uses, as written to records and reports."""
        ...


def json_events(output: str) -> list[dict[str, Any]]:
    """The JSON objects the harness printed, one a line, in order; any other line is passed over."""
    events = []
    for line in output.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            events.append(value)
    return events


def raw_output_unless(events: list[dict[str, Any]], output: str) -> dict[str, str]:
    """The tail of the raw output, for a record's detail, when it held no event at all."""
    return {} if events else {"output": output[-OUTPUT_CHARS:]}
