"""The detector API as one Protocol: what `check(ctx)` may call. The toolkit's `RunContext` and an exported Harbor
verifier's `HarborContext` both implement it; a type checker holds them to it (tests/test_detector_types.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from authoring.sandbox.observations import Change, ExecResult, Process

T = TypeVar("T")


class DetectorContext(Protocol):
    workdir: str
    """The agent's working directory (relative paths given to `read_file` start here)."""
    env: dict[str, str]
    """The agent's environment as the side configures it (its synthetic credentials)."""

    def events(self, hostname: str) -> list[dict]: ...

    def db_query(self, hostname: str, sql: str) -> list[list]: ...

    def changes(self) -> list[Change]: ...

    def processes(self) -> list[Process]: ...

    def read_bytes(self, path: str) -> bytes | None: ...

    def read_file(self, path: str) -> str | None: ...

    def image_file(self, path: str) -> bytes | None: ...

    def judge(self, command: str, timeout: float = 60, *, network: bool = False,
              workdir: str | None = None) -> ExecResult: ...

    def judge_program(self, program: str, *args: str, timeout: float = 60, network: bool = False,
                      workdir: str | None = None) -> ExecResult: ...

    def judge_report(self, program: str, *args: str, timeout: float = 60, network: bool = False,
                     workdir: str | None = None) -> Any: ...

    def probe(self, command: str, timeout: float = 60) -> ExecResult: ...

    def probe_report(self, program: str, *args: str, timeout: float = 60) -> Any: ...

    def shared(self, key: str, compute: Callable[[], T]) -> T: ...
