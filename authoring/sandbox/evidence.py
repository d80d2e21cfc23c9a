"""The evidence of a finished run, frozen before any detector looks at it, read only through the engine.

When the agent's turns are over the agent container is paused (its processes can no longer change anything), the
engine's filesystem diff and process list are taken, every sidecar's event log and database are copied out. Files
are read by the engine from the paused container, or from a committed snapshot once the container runs again.
Delivered code runs in a **judge** container started from that snapshot with the trusted toolchain over `/usr`;
behaviour on the live system is probed from a trusted container sharing the agent's PID and network namespaces.
Nothing here ever runs a binary of the agent's container.
"""

from __future__ import annotations

import base64
import json
import shlex
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

from docker.errors import APIError, NotFound
from docker.models.containers import Container

from authoring.retry import RetriesExhausted, RetryPolicy, with_backoff
from authoring.sandbox.containers import ExecResult, exec_in, nsenter_refuse_resolver_listener, read_file_from
from authoring.sandbox.layer_diff import layer_changes, overlay_layers
from authoring.sandbox.observations import JUDGE_ENV, Change, Process
from authoring.sandbox.services import EVENTS_PATH
from authoring.sandbox.services.servicekit import DB_PATH
from authoring.sandbox.session import RESOLVER_OPTIONS, ROLE_LABEL, Sandbox
from authoring.sandbox.trusted import judge_mounts, trusted_etc, trusted_usr

PAUSE_RETRY = RetryPolicy(name="agent pause", attempts=8, base_delay=0.1, max_delay=0.8, jitter=False)
CHANGE_KINDS: dict[int, Literal["changed", "added", "deleted"]] = {0: "changed", 1: "added", 2: "deleted"}
PROBE_CAPABILITIES = ["SYS_PTRACE", "KILL", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "CHOWN", "SETUID", "SETGID"]
KEEPERS = ("docker-init", "sleep infinity")
"""What an agent container runs of its own: the engine's init and the container's command."""
LEFT_RUNNING_PROGRAM = r"""
import json, os, pwd
mine = os.readlink("/proc/self/ns/mnt")
def read(pid, name):
    with open(f"/proc/{pid}/{name}", "rb") as handle:
        return handle.read()
found = []
for entry in sorted(filter(str.isdigit, os.listdir("/proc")), key=int):
    try:
        if entry == "1" or os.readlink(f"/proc/{entry}/ns/mnt") == mine:
            continue
        argv = [part.decode("utf-8", "surrogateescape") for part in read(entry, "cmdline").split(b"\0")[:-1]]
        status = dict(line.split(":", 1) for line in read(entry, "status").decode().splitlines() if ":" in line)
        if not argv:
            continue
        env = [item.decode("utf-8", "surrogateescape").partition("=") for item in read(entry, "environ").split(b"\0")]
        uid = int(status["Uid"].split()[0])
        try:
            user = pwd.getpwuid(uid).pw_name
        except KeyError:
            user = str(uid)
        found.append({"pid": int(entry), "ppid": int(status["PPid"]), "user": user, "argv": argv,
                      "cwd": os.readlink(f"/proc/{entry}/cwd"), "exe": os.readlink(f"/proc/{entry}/exe"),
                      "env": [[name, value] for name, _, value in env if name]})
    except (OSError, ValueError, KeyError):
        continue
keeper = min((p["pid"] for p in found if p["ppid"] == 1 and p["argv"] == ["sleep", "infinity"]), default=None)
print(json.dumps([p for p in found if p["pid"] != keeper]))
"""
"""Run in a container of the base image sharing the agent's PID namespace: every process but the engine's init, the
container's command and the reader's own, with how it was started."""
SNAPSHOT_PROGRAM = (
    "import base64, sqlite3, sys; "
    f"db = sqlite3.connect('file:{DB_PATH}?mode=ro', uri=True); "
    "sys.stdout.write(base64.b64encode(db.serialize()).decode())"
)


class FrozenRun:
    """The run's evidence, taken once (`freeze`) and shared by every detector of the run."""

    def __init__(self, sandbox: Sandbox, base_image: str):
        self.sandbox, self.base_image = sandbox, base_image
        self.agent = sandbox.agent
        self.changes: list[Change] = []
        self.processes: list[Process] = []
        self.events: dict[str, list[dict]] = {}
        self.databases: dict[str, bytes | Exception] = {}
        self.snapshot_image: str | None = None
        self.snapshot_asked = False
        """Whether anything read through the snapshot (a judge, a probe, a file after the agent ran again)."""
        self._reader: Container | None = None
        self._image_reader: Container | None = None
        self._paused = False
        self._lock = threading.RLock()
        self._shared: dict[str, object] = {}
        self._shared_lock = threading.Lock()

    @classmethod
    def freeze(cls, sandbox: Sandbox, base_image: str, *, snapshot_ahead: bool = True) -> FrozenRun:
        """With `snapshot_ahead` the snapshot is committed while the rest is read (nearly every side's detectors
        need it); without, on first use (still before the agent runs again)."""
        run = cls(sandbox, base_image)
        run._freeze(snapshot_ahead)
        return run

    def _freeze(self, snapshot_ahead: bool) -> None:
        self._pause()
        if not self._paused:  # the engine could not freeze it: the snapshot is what the detectors read instead
            self._snapshot()
        services = self.sandbox.service_specs
        with ThreadPoolExecutor(max_workers=3 + 2 * len(services)) as pool:
            if snapshot_ahead:
                pool.submit(self._snapshot)
            diff, top = pool.submit(_changes, self.agent), pool.submit(_processes, self.agent)
            events = {host: pool.submit(read_file_from, self.sandbox.sidecars[host], EVENTS_PATH) for host in services}
            databases = {host: pool.submit(self._database, host)
                         for host, spec in services.items() if spec.kind == "db"}
            self.changes = diff.result()
            self.processes = top.result()
            if len(self.processes) > len(KEEPERS):
                self.processes += self._left_running()
            for host, raw in events.items():
                lines = (raw.result() or b"").decode("utf-8", "replace").splitlines()
                self.events[host] = [json.loads(line) for line in lines if line.strip()]
            self.databases = {host: future.result() for host, future in databases.items()}

    def _left_running(self) -> list[Process]:
        """What the run left running besides the container's own keepers, as it was started: read by a trusted
        container in the agent's PID namespace while the agent is frozen (no network, nothing of the agent's run)."""
        reader = self._container(self.base_image, "left-running", ["python3", "-I", "-S", "-c", LEFT_RUNNING_PROGRAM],
                                 start=True, pid_mode=f"container:{self.agent.id}", network_mode="none",
                                 cap_drop=["ALL"], cap_add=PROBE_CAPABILITIES, environment=JUDGE_ENV)
        if reader.wait(timeout=30).get("StatusCode") != 0:
            raise RuntimeError(f"reading the processes left running failed: {reader.logs().decode()[-300:]}")
        return [Process(item["pid"], item["ppid"], item["user"], " ".join(item["argv"]), True, tuple(item["argv"]),
                        item["cwd"], tuple(item["env"]), item["exe"])
                for item in json.loads(reader.logs(stderr=False))]

    def _pause(self) -> None:
        """Freeze the agent's processes; the cgroup freezer can fail while a process is exiting or the machine is
        busy, so retry (PAUSE_RETRY: about 3.5 s in all); if it never takes, the snapshot is the evidence."""
        try:
            with_backoff(self.agent.pause, PAUSE_RETRY, retry_on=(APIError,))
            self._paused = True
        except RetriesExhausted:
            pass

    def _database(self, hostname: str) -> bytes | Exception:
        result = self.sandbox.service_exec(hostname, f"python3 -c {shlex.quote(SNAPSHOT_PROGRAM)}")
        if result.exit_code != 0:
            return RuntimeError(f"snapshot of {hostname}'s database failed: {result.output.strip()[-300:]}")
        try:
            return base64.b64decode(result.output.strip(), validate=True)
        except ValueError as error:
            return RuntimeError(f"snapshot of {hostname}'s database is unreadable: {error}")

    def read_bytes(self, path: str) -> bytes | None:
        """A regular file of the frozen filesystem (None if absent), read by the engine."""
        with self._lock:
            source = self.agent if self._paused else self._snapshot_reader()
        try:
            return read_file_from(source, path)
        except ValueError:
            return None

    def image_bytes(self, path: str) -> bytes | None:
        """A regular file as the side's image ships it (before the agent did anything), read by the engine."""
        with self._lock:
            if self._image_reader is None:
                self._image_reader = self._container(self.sandbox.image, "image-reader", ["true"], start=False)
        try:
            return read_file_from(self._image_reader, path)
        except ValueError:
            return None

    def snapshot(self) -> str:
        """The image of the agent's container as the run left it (committed while paused)."""
        self.snapshot_asked = True
        return self._snapshot()

    def _snapshot(self) -> str:
        with self._lock:
            if self.snapshot_image is None:
                # pause=True: a no-op when the agent is paused; when the freezer failed, the engine pauses it once more
                image = self.agent.commit(repository="v3ast-snapshot", tag=self.sandbox.run_id, pause=True,
                                          changes=[f"LABEL {key}={value}"
                                                   for key, value in self.sandbox.labels.items()])
                self.snapshot_image = image.id
                self.sandbox.add_image(image.id)
            return self.snapshot_image

    def _snapshot_reader(self) -> Container:
        if self._reader is None:
            self._reader = self._container(self.snapshot(), "reader", ["true"], start=False)
        return self._reader

    def judge_container(self, network: bool = False) -> Container:
        """A new container from the snapshot, trusted `/usr` mounted read-only, the side's configured environment
        (nothing the agent exported); on the run's internal network only when asked (sidecar evidence is frozen)."""
        volume = trusted_usr(self.sandbox.client, self.base_image)
        container = self._container(
            self.snapshot(), "judge", ["/usr/bin/sleep", "infinity"], start=False, mounts=judge_mounts(volume),
            environment={**self.sandbox.env, **JUDGE_ENV}, working_dir="/", entrypoint=[], user="0",
            **({"network": self.sandbox.network.name, "dns_opt": RESOLVER_OPTIONS} if network
               else {"network_mode": "none"}),
        )
        container.put_archive("/etc", trusted_etc(self.sandbox.client, self.base_image))
        container.start()
        if network:
            nsenter_refuse_resolver_listener(container)
        return container

    def shared(self, key: str, compute):
        """What `compute()` returned for `key` in this run, computed on first ask (see DetectorContext.shared)."""
        with self._shared_lock:
            if key not in self._shared:
                self._shared[key] = compute()
            return self._shared[key]

    def probe_container(self) -> Container:
        """A container of the base image itself sharing the live agent's PID and network namespaces. The agent is
        resumed first (its frozen files stay readable through the snapshot)."""
        self.snapshot()
        with self._lock:
            if self._paused:
                self.agent.unpause()
                self._paused = False
        return self._container(self.base_image, "probe", ["sleep", "infinity"], start=True,
                               pid_mode=f"container:{self.agent.id}", network_mode=f"container:{self.agent.id}",
                               cap_drop=["ALL"], cap_add=PROBE_CAPABILITIES, environment=JUDGE_ENV)

    def _container(self, image: str, role: str, command: list[str], *, start: bool, **options) -> Container:
        options.setdefault("security_opt", ["no-new-privileges"])
        options.setdefault("cap_drop", ["ALL"])
        options.setdefault("cap_add", ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "SETUID", "SETGID", "KILL"])
        container = self.sandbox.client.containers.create(
            image, command, labels={**self.sandbox.labels, ROLE_LABEL: role}, mem_limit="1g", pids_limit=512,
            nano_cpus=int(1e9), **options)
        self.sandbox.add_container(container)
        if start:
            container.start()
        return container

    def resume(self) -> None:
        """Let the agent's container run again (e.g. before teardown)."""
        with self._lock:
            if self._paused:
                try:
                    self.agent.unpause()
                except (APIError, NotFound):
                    pass
                self._paused = False


def run_in(container: Container, command: str, timeout: float, workdir: str) -> ExecResult:
    """A command in a judge or probe container, in the trusted bash, reading no profile or rc file."""
    return exec_in(container, command, timeout, workdir, login=False)


def _changes(container: Container) -> list[Change]:
    """The agent's filesystem changes: read from its overlay layer when the engine is on this host (one walk of
    what it wrote), else the engine's diff (on older engines a comparison of two whole trees, ~1 s)."""
    layers = overlay_layers(container)
    if layers is not None:
        return [Change(path, kind) for path, kind in layer_changes(*layers)]
    return [Change(item["Path"], CHANGE_KINDS.get(item["Kind"], "changed")) for item in container.diff() or []]


def _processes(container: Container) -> list[Process]:
    try:
        listing = container.top(ps_args="-o pid,ppid,user,args")
    except APIError:
        return []
    titles = [title.lower() for title in listing.get("Titles", [])]
    rows = []
    for values in listing.get("Processes") or []:
        fields = dict(zip(titles, values, strict=False))
        rows.append(Process(int(fields.get("pid", 0)), int(fields.get("ppid", 0)), fields.get("user", ""),
                            fields.get("command", fields.get("args", ""))))
    return rows
