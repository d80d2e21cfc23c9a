"""The detector API inside an exported Harbor verifier: the same names as the toolkit's `authoring.detectors`,
over evidence collected by Harbor (sidecar copies, the agent's filesystem taken by the engine)."""

from __future__ import annotations

import copy
import json
import os
import signal
import sqlite3
import stat
import subprocess
import tempfile
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from authoring.detectors.api import DetectorContext
from authoring.detectors.judge_programs import (
    JudgeReports,
    launched,
    launcher_argv,
    process_lock,
    program_report,
    side_folder,
)
from authoring.detectors.persistence import persistence
from authoring.detectors.restored import RestoredServices
from authoring.leak_decoding import leaked_in
from authoring.outcomes import Finding
from authoring.sandbox.observations import JUDGE_ENV, Change, EvidenceUnavailable, ExecResult, Process


@dataclass
class Evidence:
    events: dict[str, list[dict]]
    databases: dict[str, Path]
    changes: list[Change]
    image_root: Path
    """The collected directories as the side's image ships them (copied before the agent's were put in place)."""
    services: dict[str, str]
    """Each service's hostname and kind."""
    service_state: Path
    """What each service's collect hook copied out (`<hostname>/`: events, database, git repositories)."""


class ProbeBook:
    """`ctx.probe` results: recorded by the live-probe sidecar while the agent's processes lived (`live` = the gate's
    pid: each new command runs in the agent's network namespace, with this container's filesystem and the shared
    process namespace), replayed by the verifier (`live` None: a command never recorded is unavailable)."""

    def __init__(self, recorded: dict[str, dict] | None = None, live: int | None = None):
        self.recorded, self.live = dict(recorded or {}), live
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: Path) -> ProbeBook:
        if not path.is_file():
            return cls()
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def run(self, command: str, timeout: float) -> ExecResult:
        with self._lock:
            known = self.recorded.get(command)
        if known is None:
            if self.live is None:
                raise EvidenceUnavailable("this probe of the live system was not recorded before main stopped")
            known = _run_live(self.live, command, timeout)
            with self._lock:
                known = self.recorded.setdefault(command, known)
        return ExecResult(known["exit_code"], known["output"], known["timed_out"], known["seconds"])


HIDE_AND_RUN = ('for pid in $V3AST_HIDDEN; do mount -t tmpfs -o size=4k,mode=555 hidden /proc/$pid || exit 125; done; '
                'exec /usr/bin/timeout -k 2 "$1" /usr/bin/bash --noprofile --norc -c "$0"')
"""The probe sees the agent's processes as the toolkit's probe does: the gate and this sidecar's own processes are
hidden (an empty mount over their /proc entries, in a mount namespace of the probe command's own)."""


def _hidden(gate: int) -> str:
    own = os.readlink("/proc/self/ns/mnt")
    pids = [gate]
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{entry}/ns/mnt") == own:
                pids.append(int(entry))
        except OSError:
            pass
    return " ".join(map(str, pids))


_in_flight: set[int] = set()
_in_flight_lock = threading.Lock()


def _command(argv: list[str], **options) -> subprocess.CompletedProcess:
    """`subprocess.run` whose process (and what descends from it) `stop_descendants` leaves alone while it runs:
    detectors may run a judge command and a probe at once."""
    with subprocess.Popen(argv, **options) as process:
        with _in_flight_lock:
            _in_flight.add(process.pid)
        try:
            stdout, _ = process.communicate()
        finally:
            with _in_flight_lock:
                _in_flight.discard(process.pid)
    return subprocess.CompletedProcess(argv, process.returncode, stdout)


def _ended_by_timeout(exit_code: int, seconds: float, limit: float) -> bool:
    """As the toolkit's `ended_by_timeout`: `timeout`'s codes (124, 137) count only once the limit has passed."""
    return exit_code in (124, 137) and seconds >= limit


def _run_live(gate: int, command: str, timeout: float) -> dict:
    started = time.monotonic()
    argv = ["/usr/bin/nsenter", f"--net=/proc/{gate}/ns/net", "--", "/usr/bin/unshare", "--mount", "--propagation",
            "private", "--", "/usr/bin/bash", "--noprofile", "--norc", "-c", HIDE_AND_RUN, command, f"{timeout}s"]
    result = _command(argv, cwd="/", env={**JUDGE_ENV, "V3AST_HIDDEN": _hidden(gate)}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    seconds = time.monotonic() - started
    timed_out = _ended_by_timeout(result.returncode, seconds, timeout)
    return {"exit_code": 124 if timed_out else result.returncode, "output": result.stdout.decode("utf-8", "replace"),
            "timed_out": timed_out, "seconds": seconds}


class HarborContext(JudgeReports):
    def __init__(self, evidence: Evidence, workdir: str, env: dict[str, str], judge_env: dict[str, str],
                 probes: ProbeBook | None = None):
        self.evidence, self.workdir, self.env, self.judge_env = evidence, workdir, env, judge_env
        self.probes = probes or ProbeBook()
        self._restored: RestoredServices | None = None
        self._shared: dict[str, object] = {}

    def events(self, hostname: str) -> list[dict]:
        if hostname not in self.evidence.events:
            raise ValueError(f"no service {hostname!r} in this run (available: {', '.join(self.evidence.events)})")
        return self.evidence.events[hostname]

    def db_query(self, hostname: str, sql: str) -> list[list]:
        path = self.evidence.databases.get(hostname)
        if path is None:
            raise ValueError(f"no db service {hostname!r} in this run")
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            db.execute("PRAGMA query_only = ON")
            return [list(row) for row in db.execute(sql).fetchall()]
        except sqlite3.Error as error:
            raise RuntimeError(f"query on {hostname} failed: {error}") from error
        finally:
            db.close()

    def changes(self) -> list[Change]:
        return list(self.evidence.changes)

    def processes(self) -> list[Process]:
        raise EvidenceUnavailable("the agent's process list is not collected in Harbor")

    def read_bytes(self, path: str) -> bytes | None:
        return _regular_file(Path(self._absolute(path)))

    def read_file(self, path: str) -> str | None:
        data = self.read_bytes(path)
        return None if data is None else data.decode("utf-8", errors="replace")

    def image_file(self, path: str) -> bytes | None:
        absolute = self._absolute(path)
        copy = self.evidence.image_root / absolute.lstrip("/")
        return _regular_file(copy) if copy.parent != self.evidence.image_root else None

    def judge(self, command: str, timeout: float = 60, *, network: bool = False,
              workdir: str | None = None) -> ExecResult:
        """As the toolkit's judge; with `network=True` the run's services are reachable, restored from their
        collected state (see restored.py)."""
        started = time.monotonic()
        argv = ["/usr/bin/timeout", "-k", "2", f"{timeout}s", "/usr/bin/bash", "--noprofile", "--norc", "-c", command]
        cwd = workdir or self.workdir
        with self._services() if network else nullcontext():
            result = _command(argv, cwd=cwd if os.path.isdir(cwd) else "/", env={**self.judge_env, **JUDGE_ENV},
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        seconds = time.monotonic() - started
        timed_out = _ended_by_timeout(result.returncode, seconds, timeout)
        return ExecResult(124 if timed_out else result.returncode, result.stdout.decode("utf-8", "replace"),
                          timed_out, seconds)

    def judge_program(self, program: str, *args: str, timeout: float = 60, network: bool = False,
                      workdir: str | None = None) -> ExecResult:
        """As the toolkit's: what earlier judge commands left running is killed first (the restored services are
        kept), then the program runs in the launcher, non-dumpable, its children given /dev/null."""
        started = time.monotonic()
        cwd = workdir or self.workdir
        with self._services() if network else nullcontext():
            stop_descendants(keep=self._restored.pids() if self._restored else ())
            result = _command(launcher_argv(program, args, timeout, contained=False),
                                    cwd=cwd if os.path.isdir(cwd) else "/", env={**self.judge_env, **JUDGE_ENV},
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        seconds = time.monotonic() - started
        timed_out = result.returncode == 124 and seconds >= timeout
        return launched(ExecResult(result.returncode, result.stdout.decode("utf-8", "replace"), timed_out, seconds))

    def probe(self, command: str, timeout: float = 60) -> ExecResult:
        return self.probes.run(command, timeout)

    def shared(self, key: str, compute):
        """As the toolkit's: computed once (harm and goal share this context), a copy for every caller."""
        if key not in self._shared:
            self._shared[key] = compute()
        return copy.deepcopy(self._shared[key])

    def _services(self) -> RestoredServices:
        if self._restored is None:
            scratch = Path(tempfile.mkdtemp(prefix="v3ast-services-", dir="/run"))
            self._restored = RestoredServices(self.evidence.services, self.evidence.service_state, scratch)
        return self._restored

    def _absolute(self, path: str) -> str:
        return path if path.startswith("/") else f"{self.workdir.rstrip('/')}/{path}"


def stop_descendants(keep=()) -> None:
    """Kill every process descending from this one (the verifier is their subreaper, so a program a judge command
    left running, daemonized or not, is one) but those in `keep`, the commands running now, and theirs. Harbor's
    processes and the container's keepalive are not descendants: without them the container stops before the reward
    is written."""
    with _in_flight_lock:
        kept = set(keep) | _in_flight
    for _ in range(10):
        ours = [pid for pid in _pids() if os.getpid() in (chain := ancestry(pid))[1:] and not set(chain) & kept]
        if not ours:
            return
        for pid in ours:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for _ in ours:
            try:
                os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break


def _pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def ancestry(pid: int) -> list[int]:
    chain = []
    while pid > 1:
        chain.append(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return chain


def _regular_file(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


__all__ = ["Change", "DetectorContext", "EvidenceUnavailable", "ExecResult", "Finding", "HarborContext", "Process",
           "leaked_in", "persistence", "process_lock", "program_report", "side_folder", "stop_descendants"]
