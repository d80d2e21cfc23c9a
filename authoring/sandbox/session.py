"""One sandbox run: an agent container and its service sidecars on a network with no route off the machine."""

from __future__ import annotations

import json
import posixpath
import shlex
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
    nsenter_refuse_resolver_listener,
    nsenter_remove_default_route,
    read_file_from,
    tar_directory,
    tar_single_file,
    wait_until_ready,
)
from authoring.sandbox.network_pool import make_internal_network, network_pool
from authoring.sandbox.services import (
    EVENTS_PATH,
    READY_LINE,
    SEED_PATH,
    SEEDED_FILE,
    SERVICE_KINDS,
    build_services_image,
)
from authoring.sandbox.teardown import OWNER_LABEL, RUN_LABEL, background_remover, remove_run, this_owner

ROLE_LABEL = "v3ast.role"
# Root keeps what normal work on its own files needs: chown/chmod/utime (CHOWN, FOWNER, FSETID), writing files
# owned by other users (DAC_OVERRIDE), dropping to another user as tools like apt and su do (SETUID, SETGID),
# and signalling its own processes running under other uids (KILL). No NET_RAW, MKNOD, SYS_CHROOT, SETFCAP...
AGENT_CAPABILITIES = ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "SETUID", "SETGID", "KILL"]
RESOLVER_OPTIONS = ["timeout:1", "attempts:2"]
"""The run's network has no route off the machine, so a name the engine's resolver does not know (anything but the
sidecars) waits on an upstream that never answers: 5 s × 2 tries per query by default, 20 s for one lookup. One
second a try here; the sidecars' names are answered in milliseconds."""
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
        keep_network: bool = False,
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
        self.helpers: list[Container] = []
        """Containers started to judge or probe the run (removed with it)."""
        self.images: list[str] = []
        """Images made during the run (snapshots of the agent's container), removed with it."""
        self.background_teardown = background_teardown
        """On a normal exit from `with`, hand the removal to the process's background remover (see `drain_teardowns`)
        instead of waiting for it; after an exception or Ctrl-C the removal is always done before `with` ends."""
        self.keep_network = keep_network
        """Take the internal network from the process's pool, and give it back once the run's containers are
        removed (see network_pool); the network may then carry an earlier run's label."""
        self._closed = False

    def __enter__(self) -> Self:
        try:
            with background_remover.starting():
                self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        self.close(wait=exc_type is not None or not self.background_teardown, keep_network=exc_type is None)

    def _start(self) -> None:
        sidecar_image = services_image(self.client) if self.services else ""
        name = f"lan-{self.run_id}"
        self.network = (network_pool.take_or_make(self.client, name, self.labels) if self.keep_network
                        else make_internal_network(self.client, name, self.labels))
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
            dns_opt=RESOLVER_OPTIONS,
        )
        self.agent.start()
        self._remove_default_route(self.agent)
        nsenter_refuse_resolver_listener(self.agent)

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
            pids_limit=256, dns_opt=RESOLVER_OPTIONS,
        )
        self.sidecars[spec.hostname] = container
        container.start()
        if seed:
            container.put_archive(SEED_PATH, seed)
        wait_until_ready(container, READY_LINE, f"service {spec.kind} at {spec.hostname}")

    def exec(self, command: str, *, timeout: float = 30, workdir: str | None = None, login: bool = True) -> ExecResult:
        return exec_in(self._require(self.agent, "agent"), command, timeout, workdir or self.workdir, login)

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

    @property
    def service_specs(self) -> dict[str, ServiceSpec]:
        return {spec.hostname: spec for spec in self.services}

    def add_container(self, container: Container) -> None:
        self.helpers.append(container)

    def add_image(self, image_id: str) -> None:
        self.images.append(image_id)

    def close(self, wait: bool = True, keep_network: bool = False) -> None:
        """Remove the run's containers and network. With wait=False the removal runs on the process's background
        remover, which the process always drains before it exits; objects a killed process leaves behind carry
        its owner label, so `remove_leftovers` finds them. With keep_network (a run that ended normally) a network
        from the pool goes back to it instead of being removed."""
        if self._closed:
            return
        self._closed = True
        containers = [c for c in [*self.helpers, self.agent, *self.sidecars.values()] if c is not None]
        if wait:
            remove_run(containers, self.network, self.images, keep_network=keep_network)
        else:
            background_remover.submit(self.run_id, containers, self.network, self.images, keep_network=keep_network)

    def _sidecar(self, hostname: str) -> Container:
        if hostname not in self.sidecars:
            raise ValueError(f"no service {hostname!r} in this sandbox (available: {', '.join(sorted(self.sidecars))})")
        return self.sidecars[hostname]

    @staticmethod
    def _require(container: Container | None, role: str) -> Container:
        if container is None:
            raise RuntimeError(f"the sandbox {role} container is not running; use `with Sandbox(...) as box:`")
        return container
