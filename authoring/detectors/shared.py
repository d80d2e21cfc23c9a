"""What detectors share: how a judge program's report is read, and per-process locks. Detectors are loaded fresh
for every run and runs are judged in parallel threads, so a module-level lock in a detector guards one run only; a
resource that is one per process (an in-memory SQLite database opened by name, a fixed path) needs a lock that every
load of every detector sees."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path

LAUNCHER = Path(__file__).with_name("launcher.py").read_text(encoding="utf-8")
LAUNCHER_START = "@@v3ast-judge-program-start@@"
"""What the launcher writes once it alone holds its output (its START)."""
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def process_lock(name: str) -> threading.Lock:
    """The one lock of this process called `name`, whichever detector (or fresh load of it) asks."""
    with _guard:
        return _locks.setdefault(name, threading.Lock())


def program_report(result, marker: str) -> dict | list:
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


def launcher_argv(program: str, args: tuple[str, ...], timeout: float, *, contained: bool) -> list[str]:
    """The exec that runs a judge program's source with `args` in the launcher (see launcher.py); `contained` when
    the container is the program's own, so everything else in it may be killed first and on timeout."""
    return ["/usr/bin/python3", "-I", "-S", "-c", LAUNCHER, f"{timeout:g}", "1" if contained else "0",
            LAUNCHER_START, program, *args]


def launched(result):
    """A launcher's result (its standard output only) with what came before its last start line dropped: all a
    process left by earlier commands could write there. Without the line the launcher failed: kept as it is."""
    _, found, after = result.output.rpartition(f"\n{LAUNCHER_START}\n")
    return replace(result, output=after, sole_writer=True) if found else result
