"""One sandbox run: an agent container and its service sidecars on a network with no route off the machine."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import posixpath
import queue
import shlex
import socket
import sys
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import docker
from docker.errors import NotFound
from docker.models.containers import Container

from authoring.sandbox.base_image import BASE_IMAGE
from authoring.sandbox.containers import (
    READY_SECONDS,
    ExecResult,
    exec_in,
    force_remove,
    nsenter_remove_default_route,
    read_file_from,
    tar_directory,
    tar_single_file,
    wait_until_ready,
)
from authoring.sandbox.services import (
    EVENTS_PATH,
    READY_LINE,
    SEED_PATH,
    SEEDED_FILE,
    SERVICE_KINDS,
    build_services_image,
)

RUN_LABEL = "v3ast.run"
OWNER_LABEL = "v3ast.owner"
ROLE_LABEL = "v3ast.role"
# Root keeps what normal work on its own files needs: chown/chmod/utime (CHOWN, FOWNER, FSETID), writing files
# owned by other users (DAC_OVERRIDE), dropping to another user as tools like apt and su do (SETUID, SETGID),
# and signalling its own processes running under other uids (KILL). No NET_RAW, MKNOD, SYS_CHROOT, SETFCAP...
AGENT_CAPABILITIES = ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "SETUID", "SETGID", "KILL"]
_services_images: dict[str, str] = {}
_services_lock = threading.Lock()


@dataclass(frozen=True)
class ServiceSpec:
    kind: str
    hostname: str
    seed_dir: Path | None = None


@dataclass(frozen=True)
class Limits:
    memory: str = "1g"
    pids: int = 512
    cpus: float = 1.0


def services_image(client: docker.DockerClient, base_image: str = BASE_IMAGE) -> str:
    """The sidecar image, built once per process (and reused across processes by its content tag)."""
    with _services_lock:
        if base_image not in _services_images:
            _services_images[base_image] = build_services_image(client, base_image)
        return _services_images[base_image]


class Sandbox:
    def __init__(
        self,
        client: docker.DockerClient,
        image: str,
        services: Sequence[ServiceSpec] = (),
        *,
        workdir: str = "/workspace",
        env: Mapping[str, str] = {},
        limits: Limits = Limits(),
        run_id: str | None = None,
        hostname: str = "devbox",
        background_teardown: bool = False,
    ) -> None:
        for spec in services:
            if spec.kind not in SERVICE_KINDS:
                raise ValueError(f"unknown service kind {spec.kind!r} (available: {', '.join(SERVICE_KINDS)})")
        hostnames = [spec.hostname for spec in services]
        if len(set(hostnames)) != len(hostnames) or hostname in hostnames:
            raise ValueError(f"service hostnames must be unique and differ from {hostname!r} (given: {hostnames})")
        self.client, self.image, self.services = client, image, tuple(services)
        self.workdir, self.env, self.limits, self.hostname = workdir, dict(env), limits, hostname
        package_indexes = [spec.hostname for spec in services if spec.kind == "pypi"]
        if package_indexes and "PIP_TRUSTED_HOST" not in self.env:
            self.env["PIP_TRUSTED_HOST"] = " ".join(package_indexes)
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.labels = {RUN_LABEL: self.run_id, OWNER_LABEL: this_owner()}
        self.network = None
        self.agent: Container | None = None
        self.sidecars: dict[str, Container] = {}
        self.background_teardown = background_teardown
        """On a normal exit from `with`, hand the removal to the process's background remover (see `drain_teardowns`)
        instead of waiting for it; after an exception or Ctrl-C the removal is always done before `with` ends."""
        self._closed = False

    def __enter__(self) -> Self:
        try:
            with _remover.starting():
                self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        self.close(wait=exc_type is not None or not self.background_teardown)

    def _start(self) -> None:
        sidecar_image = services_image(self.client) if self.services else ""
        self.network = self.client.networks.create(
            f"lan-{self.run_id}", driver="bridge", internal=True, labels=self.labels,
            options={"com.docker.network.bridge.inhibit_ipv4": "true"},
        )
        jobs: list[Callable[[], None]] = [self._start_agent]
        jobs += [lambda spec=spec: self._start_sidecar(spec, sidecar_image) for spec in self.services]
        with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
            for future in [pool.submit(job) for job in jobs]:
                future.result()

    def _start_agent(self) -> None:
        self.agent = self.client.containers.create(
            self.image, ["sleep", "infinity"], name=f"{self.hostname}-{self.run_id}", hostname=self.hostname,
            working_dir=self.workdir, environment=self.env, labels={**self.labels, ROLE_LABEL: "agent"},
            network=self.network.name, privileged=False, cap_drop=["ALL"], cap_add=AGENT_CAPABILITIES,
            security_opt=["no-new-privileges"], mem_limit=self.limits.memory, memswap_limit=self.limits.memory,
            pids_limit=self.limits.pids, nano_cpus=int(self.limits.cpus * 1e9), init=True,
        )
        self.agent.start()
        self._remove_default_route(self.agent)

    def _remove_default_route(self, container: Container) -> None:
        """Engines before 26 give containers on internal networks a default route. The agent has no NET_ADMIN,
        so the route is deleted from outside: nsenter when the engine runs on this host, else a one-shot helper
        container sharing the agent's network namespace."""
        if nsenter_remove_default_route(container):
            return
        helper = self.client.containers.run(
            BASE_IMAGE, ["sh", "-c", "ip route del default 2>/dev/null; ! ip route | grep -q ^default"],
            network_mode=f"container:{container.id}", cap_drop=["ALL"], cap_add=["NET_ADMIN"],
            labels={**self.labels, ROLE_LABEL: "route-helper"}, detach=True,
        )
        try:
            status = helper.wait(timeout=READY_SECONDS)
        finally:
            force_remove(helper)
        if status.get("StatusCode") != 0:
            raise RuntimeError(f"could not remove the default route of the agent container ({status})")

    def _start_sidecar(self, spec: ServiceSpec, image: str) -> None:
        # The seed is copied in while the service's interpreter starts; the service waits for its last file.
        seed = None if spec.seed_dir is None else tar_directory(Path(spec.seed_dir), last_file=SEEDED_FILE)
        endpoint = self.client.api.create_endpoint_config(aliases=[spec.hostname])
        container = self.client.containers.create(
            image, [spec.kind, *(["--await-seed"] if seed else [])], name=f"{spec.hostname}-{self.run_id}",
            hostname=spec.hostname.split(".")[0], labels={**self.labels, ROLE_LABEL: f"service:{spec.hostname}"},
            network=self.network.name, networking_config={self.network.name: endpoint}, mem_limit="512m",
            pids_limit=256,
        )
        self.sidecars[spec.hostname] = container
        container.start()
        if seed:
            container.put_archive(SEED_PATH, seed)
        wait_until_ready(container, READY_LINE, f"service {spec.kind} at {spec.hostname}")

    def exec(self, command: str, *, timeout: float = 30, workdir: str | None = None) -> ExecResult:
        return exec_in(self._require(self.agent, "agent"), command, timeout, workdir or self.workdir)

    def service_exec(self, hostname: str, command: str, timeout: float = 30) -> ExecResult:
        return exec_in(self._sidecar(hostname), command, timeout, "/")

    def read_file(self, path: str) -> bytes | None:
        return read_file_from(self._require(self.agent, "agent"), path)

    def write_file(self, path: str, data: bytes, mode: int = 0o644) -> None:
        agent = self._require(self.agent, "agent")
        directory, name = posixpath.split(posixpath.join(self.workdir, path))
        try:
            agent.put_archive(directory, tar_single_file(name, data, mode))
        except NotFound:
            self.exec(f"mkdir -p {shlex.quote(directory)}")
            agent.put_archive(directory, tar_single_file(name, data, mode))

    def service_events(self, hostname: str) -> list[dict]:
        raw = read_file_from(self._sidecar(hostname), EVENTS_PATH)
        return [json.loads(line) for line in (raw or b"").decode().splitlines() if line.strip()]

    def close(self, wait: bool = True) -> None:
        """Remove the run's containers and network. With wait=False the removal runs on the process's background
        remover, which the process always drains before it exits; objects a killed process leaves behind carry
        its owner label, so `remove_leftovers` finds them."""
        if self._closed:
            return
        self._closed = True
        containers = [c for c in [self.agent, *self.sidecars.values()] if c is not None]
        if wait:
            remove_run(containers, self.network)
        else:
            _remover.submit(self.run_id, containers, self.network)

    def _sidecar(self, hostname: str) -> Container:
        if hostname not in self.sidecars:
            raise ValueError(f"no service {hostname!r} in this sandbox (available: {', '.join(sorted(self.sidecars))})")
        return self.sidecars[hostname]

    @staticmethod
    def _require(container: Container | None, role: str) -> Container:
        if container is None:
            raise RuntimeError(f"the sandbox {role} container is not running; use `with Sandbox(...) as box:`")
        return container


def remove_run(containers: Sequence[Container], network: docker.models.networks.Network | None) -> None:
    """Remove containers in parallel, then the network. Plain threads, not an executor: this also runs from an
    atexit handler, when concurrent.futures no longer accepts work."""
    errors: list[BaseException] = []

    def remove(container: Container) -> None:
        try:
            force_remove(container)
        except BaseException as error:  # noqa: BLE001 - re-raised below, after the other removals
            errors.append(error)

    threads = [threading.Thread(target=remove, args=(c,), name="v3ast-remove") for c in containers]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
    finally:
        if network is not None:
            try:
                network.remove()
            except NotFound:
                pass


class _BackgroundRemover:
    """One daemon thread removing finished runs, registered to be drained at interpreter exit. The queue is
    bounded, so a long batch cannot run ahead of its teardowns.

    The engine serializes network and container set-up with removal, so a removal overlapping the start of the
    next sandbox only delays that start. A removal therefore lets a start go first: it waits a short grace for
    one to begin and then for it to finish (both bounded), and runs while the next run executes commands."""

    PENDING_RUNS = 4
    GRACE_SECONDS = 0.25
    MAX_PAUSE_SECONDS = 5.0

    def __init__(self) -> None:
        self._queue: queue.Queue = queue.Queue(maxsize=self.PENDING_RUNS)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._starting = 0
        self._draining = 0
        self._state = threading.Condition()

    @contextlib.contextmanager
    def starting(self):
        """Marks a sandbox start: queued removals wait for it."""
        with self._state:
            self._starting += 1
            self._state.notify_all()
        try:
            yield
        finally:
            with self._state:
                self._starting -= 1
                self._state.notify_all()

    def submit(self, run_id: str, containers: Sequence[Container], network) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="v3ast-teardown", daemon=True)
                self._thread.start()
                atexit.register(self.drain)
        self._queue.put((run_id, list(containers), network))

    def drain(self) -> None:
        """Wait until every submitted run is removed; queued removals stop waiting for starts."""
        with self._state:
            self._draining += 1
            self._state.notify_all()
        try:
            self._queue.join()
        finally:
            with self._state:
                self._draining -= 1

    def _work(self) -> None:
        while True:
            run_id, containers, network = self._queue.get()
            try:
                with self._state:
                    self._state.wait_for(lambda: self._starting or self._draining, timeout=self.GRACE_SECONDS)
                    self._state.wait_for(lambda: not self._starting or self._draining, timeout=self.MAX_PAUSE_SECONDS)
                remove_run(containers, network)
            except Exception as error:  # noqa: BLE001 - reported; remove_leftovers covers what is left
                print(f"v3ast: could not remove run {run_id}: {error} (`v3ast doctor --fix` removes leftovers)",
                      file=sys.stderr)
            finally:
                self._queue.task_done()


_remover = _BackgroundRemover()


def drain_teardowns() -> None:
    """Wait for the background removal of every sandbox closed with wait=False (also done at exit)."""
    _remover.drain()


def this_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_is_gone(labels: Mapping[str, str]) -> bool:
    """Whether the process that started a run has ended (only decidable for processes of this host)."""
    host, _, pid = labels.get(OWNER_LABEL, "").rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return OWNER_LABEL not in labels
    return not Path(f"/proc/{pid}").exists()


def remove_leftovers(client: docker.DockerClient, run_id: str | None = None) -> int:
    """Remove the containers and networks of one run, or of every run whose process was killed before
    cleaning up; runs of live processes (another batch on the same engine) are left alone."""
    label = f"{RUN_LABEL}={run_id}" if run_id else RUN_LABEL
    containers = client.containers.list(all=True, filters={"label": label})
    if run_id is None:
        containers = [c for c in containers if owner_is_gone(c.labels)]
    with ThreadPoolExecutor(max_workers=max(1, len(containers))) as pool:
        list(pool.map(force_remove, containers))
    networks = client.networks.list(filters={"label": label})
    if run_id is None:
        networks = [n for n in networks if owner_is_gone(n.attrs.get("Labels") or {})]
    for network in networks:
        try:
            network.remove()
        except NotFound:
            pass
    return len(containers) + len(networks)


