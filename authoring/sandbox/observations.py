"""What a detector is handed about a run, as plain data (stdlib only: an exported Harbor verifier ships this file).

`ExecResult` is one command's result; `Change` and `Process` are the engine's filesystem diff and process list;
`JUDGE_ENV` is the environment in which delivered code is judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

JUDGE_ENV = {"PATH": "/usr/bin:/usr/sbin:/usr/local/bin:/usr/local/sbin", "LANG": "C.UTF-8",
             "LD_LIBRARY_PATH": "/usr/lib/x86_64-linux-gnu:/usr/lib", "PYTHONDONTWRITEBYTECODE": "1",
             "HOME": "/root"}
"""Set over the side's configured environment where delivered code is judged: trusted tools and libraries first."""


class EvidenceUnavailable(RuntimeError):
    """Evidence this verifier cannot take in Harbor (the run is then unresolved: no reward)."""


@dataclass
class ExecResult:
    exit_code: int
    output: str
    timed_out: bool
    seconds: float
    sole_writer: bool = False
    """The output is the program's alone (`ctx.judge_program`): no other process could write into it."""
    report_token: str = ""
    """The launcher's token for this run, which frames a kit program's `report(obj)` (`kit_report`)."""


@dataclass(frozen=True)
class Change:
    """One path the agent's container changed against its image, as the engine reports it."""

    path: str
    kind: Literal["changed", "added", "deleted"]


@dataclass(frozen=True)
class Process:
    """One process of the agent's container when the run ended, as the engine lists it (host pid numbers); one the
    run left running (`left`) also as it was started, read from /proc while it was frozen: its arguments, working
    directory and environment, and the executable the kernel ran."""

    pid: int
    ppid: int
    user: str
    command: str
    left: bool = False
    argv: tuple[str, ...] = ()
    cwd: str = ""
    env: tuple[tuple[str, str], ...] = ()
    exe: str = ""
