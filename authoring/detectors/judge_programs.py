"""Judge programs: how one is launched with the judge kit and how its report is read; and per-process locks.
Detectors are loaded fresh for every run and runs are judged in parallel threads, so a module-level lock in a
detector guards one run only; a resource that is one per process (an in-memory SQLite database opened by name, a
fixed path) needs a lock that every load of every detector sees."""

from __future__ import annotations

import ast
import functools
import json
import shlex
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from authoring.judgekit.reporting import REPORT_MARK
from authoring.sandbox.observations import ExecResult

LAUNCHER = Path(__file__).with_name("launcher.py").read_text(encoding="utf-8")
KIT_FOLDER = Path(__file__).resolve().parents[1] / "judgekit"
"""The judge kit, shipped whole into every judge program (here and in an exported verifier, at the same place)."""
ARGUMENT_LIMIT = 128 * 1024
"""Linux's limit on one argument (MAX_ARG_STRLEN)."""
LAUNCHER_START = "@@v3ast-judge-program-start@@"
"""What the launcher writes once it alone holds its output (its START)."""
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def side_folder(module_name: str) -> Path:
    """The folder of the side whose detectors are running (`side_folder(__name__)` in a detector module): its
    `environment/`, `services/` and so on, also from code the pair's two sides share."""
    return Path(sys.modules[module_name.rpartition(".")[0]].__side__)


def process_lock(name: str) -> threading.Lock:
    """The one lock of this process called `name`, whichever detector (or fresh load of it) asks."""
    with _guard:
        return _locks.setdefault(name, threading.Lock())


def program_report(result, marker: str) -> Any:
    """The JSON a detector's judge program printed after `marker` (on the marker's line, or the next line), from a
    `ctx.judge_program` result. Raises unless the program exited 0, did not time out, and exactly one line starts
    with the marker. From any other command's result (whose output delivered code could write into) the marker must
    also occur nowhere else: a forged line left unfinished would push the real one off its line start."""
    lines = result.output.splitlines()
    found = [number for number, line in enumerate(lines) if line.startswith(marker)]
    seen = len(found) if result.sole_writer else result.output.count(marker)
    if result.exit_code != 0 or result.timed_out or len(found) != 1 or seen != 1:
        raise RuntimeError(f"judge program: exit {result.exit_code}, {seen} report marker(s) {marker!r}"
                           f"{' (timed out)' if result.timed_out else ''}: {result.output.strip()[-600:]}")
    rest = [lines[found[0]][len(marker):].strip(), *lines[found[0] + 1:]]
    text = next((line for line in rest if line.strip()), "")
    try:
        report = json.loads(text)
    except ValueError as error:
        raise RuntimeError(f"judge program: the report after {marker!r} is not JSON ({error}): "
                           f"{text[:200]!r}") from None
    if not isinstance(report, dict | list):
        raise RuntimeError(f"judge program: the report after {marker!r} is not an object or a list: {text[:200]!r}")
    return report


def kit_report(result) -> Any:
    """The report a judge program made with the kit's `report(obj)`, from a `judge_program` result: raises (the run
    stays UNRESOLVED) unless the program exited 0 in time and reported exactly once."""
    if not result.sole_writer or not result.report_token:
        raise RuntimeError("judge program: its launcher did not start, so its output is not its own: "
                           f"{result.output.strip()[-600:]}")
    return program_report(result, f"{REPORT_MARK}{result.report_token} ")


class _Runs(Protocol):
    def judge_program(self, program: str, *args: str, timeout: float = 60, network: bool = False,
                      workdir: str | None = None) -> ExecResult: ...

    def probe(self, command: str, timeout: float = 60) -> ExecResult: ...


class JudgeReports:
    """`ctx.judge_report` and `ctx.probe_report`, the same for every context that has `judge_program` and `probe`."""

    def judge_report(self: _Runs, program: str, *args: str, timeout: float = 60, network: bool = False,
                     workdir: str | None = None) -> Any:
        """Run a judge program (see `judge_program`) that imports the kit (`from judgekit import report`) and
        reports once with `report(obj)`; its report, or an error when it made none (fail closed)."""
        return kit_report(self.judge_program(program, *args, timeout=timeout, network=network, workdir=workdir))

    def probe_report(self: _Runs, program: str, *args: str, timeout: float = 60) -> Any:
        """As `judge_report`, in the probe container (the live agent's processes and network): the program runs in
        the launcher there too (non-dumpable, private output, its children given /dev/null)."""
        argv = launcher_argv(program, args, timeout, contained=False)
        return kit_report(launched(self.probe(shlex.join(argv), timeout=timeout + 5)))


@functools.cache
def kit_sources() -> dict[str, str]:
    """The judge kit's modules by name (`judgekit`, `judgekit.sqltaint`, …) → source."""
    return {("judgekit" if path.stem == "__init__" else f"judgekit.{path.stem}"): path.read_text(encoding="utf-8")
            for path in sorted(KIT_FOLDER.glob("*.py"))}


def kit_imports(source: str, package: str = "") -> set[str]:
    """The kit modules `source` imports or runs (`program_source(name)`); `package`: the kit module it is, for its
    relative imports."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "judgekit" if node.level and package else (node.module or "")
            base = f"{base}.{node.module}" if node.level and package and node.module else base
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == \
                "program_source" and node.args and isinstance(node.args[0], ast.Constant):
            names = [f"judgekit.{node.args[0].value!s}"]  # a kit file run as a program of its own
        found |= {name for name in names if name in kit_sources()}
    return found


@functools.lru_cache(maxsize=256)
def kit_argument(program: str) -> str:
    """The kit modules `program` needs (what it imports, and what those import) as the launcher's KIT argument
    (JSON: module name → source): one argument of at most 128 KiB, so only what is used travels."""
    always = ("judgekit", "judgekit.reporting")  # the launcher binds the report channel of every program
    wanted, pending = set(always), [("", program), *((name, kit_sources()[name]) for name in always)]
    while pending:
        package, source = pending.pop()
        for name in kit_imports(source, package) - wanted:
            wanted.add(name)
            pending.append((name, kit_sources()[name]))
    text = json.dumps({name: kit_sources()[name] for name in sorted(wanted)})
    if len(text.encode()) >= ARGUMENT_LIMIT:
        raise RuntimeError(f"the judge kit modules this program needs are {len(text.encode())} bytes, over one "
                           f"argument's {ARGUMENT_LIMIT}")
    return text


def launcher_argv(program: str, args: tuple[str, ...], timeout: float, *, contained: bool) -> list[str]:
    """The exec that runs a judge program's source with `args` in the launcher (see launcher.py); `contained` when
    the container is the program's own, so everything else in it may be killed first and on timeout."""
    return ["/usr/bin/python3", "-I", "-S", "-c", LAUNCHER, f"{timeout:g}", "1" if contained else "0",
            LAUNCHER_START, kit_argument(program), program, *args]


def launched(result):
    """A launcher's result (its standard output only) with what came before its last start line dropped: all a
    process left by earlier commands could write there. Without the line the launcher failed: kept as it is."""
    _, found, after = result.output.rpartition(f"\n{LAUNCHER_START}\n")
    token, _, after = after.partition("\n")
    return replace(result, output=after, sole_writer=True, report_token=token.strip()) if found else result
