"""The process a detector's judge program runs in (`ctx.judge_program`), started by the trusted interpreter as
`/usr/bin/python3 -I -S -c <this file> SECONDS CONTAINED START KIT PROGRAM [ARG ...]`, as the exec's only process.

Delivered code the program runs is root beside it, so this process makes sure nothing the program starts can write
into the program's output or read its memory:
- with CONTAINED=1 (a judge container of its own) it first kills every other process but the container's init:
  whatever earlier commands left running;
- it makes itself non-dumpable: without CAP_SYS_PTRACE (judge containers lack it) no other process, root or not,
  may open its `/proc/PID/fd`, read or write its memory, or trace it;
- it then writes `START` and a fresh token on its standard output, and the program prints (stdout and stderr) to
  a private copy of it: what a process left by earlier commands wrote into this process's output before it was
  killed comes before `START`, and the reader keeps only what follows the last `START` on standard output (never
  standard error);
- descriptors 0, 1 and 2, which every child inherits, become /dev/null;
- after SECONDS it kills what the program started (CONTAINED=1: every other process) and exits 124;
- the judge kit (KIT: JSON of module name → source) is importable as `judgekit` from memory, ahead of every other
  finder, so nothing in the box can stand in for it; its `report(obj)` frames the report with the token, which
  nothing the program prints (delivered output included) can hold.
Delivered code can still kill this process; the detector then finds no report and the run stays UNRESOLVED.
"""

import ctypes
import importlib.util
import json
import os
import secrets
import signal
import sys
import threading
import time

PR_SET_DUMPABLE = 4
TIMED_OUT = 124


def kill_others() -> None:
    """SIGKILL to every process this one may signal but init, until none is left alive (a process forking while
    the first signal goes out can leave a child)."""
    own = os.getpid()
    for _ in range(100):
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if not [pid for pid in os.listdir("/proc") if pid.isdigit() and int(pid) not in (1, own) and alive(pid)]:
            return
        time.sleep(0.01)
    raise RuntimeError("processes left by earlier commands would not die")


def stat_fields(pid: str) -> list[bytes]:
    """`/proc/PID/stat` after the command name: state, parent, …"""
    with open(f"/proc/{pid}/stat", "rb") as handle:
        return handle.read().rsplit(b")", 1)[1].split()


def alive(pid: str) -> bool:
    try:
        return stat_fields(pid)[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def kill_children() -> None:
    own = str(os.getpid()).encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if stat_fields(pid)[1] == own:
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, IndexError, ProcessLookupError):
            pass


class KitFinder:
    """Imports `judgekit` and its modules from the sources handed to the launcher."""

    def __init__(self, sources: dict[str, str]):
        self.sources = sources

    def find_spec(self, name, path=None, target=None):
        if name not in self.sources:
            return None
        return importlib.util.spec_from_loader(name, self, is_package=self.is_package(name))

    def is_package(self, name: str) -> bool:
        return "." not in name

    def get_source(self, name: str) -> str:
        return self.sources[name]

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        exec(compile(self.sources[module.__name__], f"<{module.__name__}>", "exec"), module.__dict__)


def main() -> None:
    seconds, contained, start, kit, program, *args = sys.argv[1:]
    try:
        if contained == "1":
            kill_others()
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")
    except (OSError, RuntimeError) as error:
        print(f"judge launcher: {error}", flush=True)
        os._exit(2)
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="replace", buffering=1)
    err = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="replace", buffering=1)
    token = secrets.token_hex(16)
    out.write(f"\n{start}\n{token}\n")
    out.flush()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    sys.stdin, sys.stdout, sys.stderr = open(os.devnull), out, err

    def expire() -> None:
        time.sleep(float(seconds))
        kill_others() if contained == "1" else kill_children()
        err.write(f"\njudge program: timed out after {seconds} s\n")
        err.flush()
        os._exit(TIMED_OUT)

    threading.Thread(target=expire, daemon=True).start()
    sys.meta_path.insert(0, KitFinder(json.loads(kit)))
    importlib.import_module("judgekit.reporting").bind(out, token)
    sys.argv = ["-c", *args]
    exec(compile(program, "<judge program>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})


if __name__ == "__main__":
    main()
