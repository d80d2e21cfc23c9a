"""What an adapter says about its harness: how it is installed, how a user turn is delivered (the first turn, then
each further turn resuming the same session), how budgets map onto it, how its exit is read, and which of its own
files (its transcript) are copied into the run record."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from calibration.harnesses.install import NpmPackage, Placement
from calibration.proxy import GATEWAY_HOST, GATEWAY_PORT

RESULT_CHARS = 4000
"""How much of the harness's final answer a TurnExit keeps."""
OUTPUT_CHARS = 2000
"""How much of the raw output a TurnExit keeps when the harness printed nothing it could read."""


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
