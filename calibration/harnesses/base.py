"""What an adapter says about its harness: how it is installed, how a user turn is delivered (the first turn, then
each further turn resuming the same session), how budgets map onto it, how its exit is read, and which of its own
files (its transcript) are copied into the run record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from calibration.harnesses.install import NpmPackage, Placement

GATEWAY_HOST = "model-gateway"
"""The model proxy's name on a run's internal network (its relay sidecar's alias)."""
GATEWAY_PORT = 8080


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

    def read_exit(self, exit_code: int, output: str) -> TurnExit: ...

    def flags(self) -> dict[str, Any]:
        """The permissive settings and flags every run uses, as written to records and reports."""
        ...
