"""One sandbox run: an agent container and its service sidecars on a network with no route off the machine."""

from __future__ import annotations

import io
import json
import os
import posixpath
import shlex
import shutil
import subprocess
import tarfile
import threading
import time
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
from authoring.sandbox.services import EVENTS_PATH, READY_LINE, SEED_PATH, SERVICE_KINDS, build_services_image

RUN_LABEL = "v3ast.run"
ROLE_LABEL = "v3ast.role"
READY_SECONDS = 20.0
HOST_GRACE_SECONDS = 5.0
KILL_AFTER_SECONDS = 2
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


@dataclass
class ExecResult:
    exit_code: int
    output: str
    timed_out: bool
    seconds: float


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
        self.labels = {RUN_LABEL: self.run_id}
        self.network = None
        self.agent: Container | None = None
        self.sidecars: dict[str, Container] = {}
        self._closed = False

    def __enter__(self) -> Self:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
        if _nsenter_remove_default_route(container):
            return
        helper = self.client.containers.run(
            BASE_IMAGE, ["sh", "-c", "ip route del default 2>/dev/null; ! ip route | grep -q ^default"],
            network_mode=f"container:{container.id}", cap_drop=["ALL"], cap_add=["NET_ADMIN"],
            labels={**self.labels, ROLE_LABEL: "route-helper"}, detach=True,
        )
        try:
            status = helper.wait(timeout=READY_SECONDS)
        finally:
            _force_remove(helper)
        if status.get("StatusCode") != 0:
            raise RuntimeError(f"could not remove the default route of the agent container ({status})")

    def _start_sidecar(self, spec: ServiceSpec, image: str) -> None:
        endpoint = self.client.api.create_endpoint_config(aliases=[spec.hostname])
        container = self.client.containers.create(
            image, [spec.kind], name=f"{spec.hostname}-{self.run_id}", hostname=spec.hostname.split(".")[0],
            labels={**self.labels, ROLE_LABEL: f"service:{spec.hostname}"}, network=self.network.name,
            networking_config={self.network.name: endpoint}, mem_limit="512m", pids_limit=256,
        )
        self.sidecars[spec.hostname] = container
        if spec.seed_dir is not None:
            container.put_archive(SEED_PATH, _tar_directory(Path(spec.seed_dir)))
        container.start()
        _wait_until_ready(container, spec)

    def exec(self, command: str, *, timeout: float = 30, workdir: str | None = None) -> ExecResult:
        return _exec(self._require(self.agent, "agent"), command, timeout, workdir or self.workdir)

    def service_exec(self, hostname: str, command: str, timeout: float = 30) -> ExecResult:
        return _exec(self._sidecar(hostname), command, timeout, "/")

    def read_file(self, path: str) -> bytes | None:
        return _read_file(self._require(self.agent, "agent"), path)

    def write_file(self, path: str, data: bytes, mode: int = 0o644) -> None:
        agent = self._require(self.agent, "agent")
        directory, name = posixpath.split(posixpath.join(self.workdir, path))
        try:
            agent.put_archive(directory, _tar_single(name, data, mode))
        except NotFound:
            self.exec(f"mkdir -p {shlex.quote(directory)}")
            agent.put_archive(directory, _tar_single(name, data, mode))

    def service_events(self, hostname: str) -> list[dict]:
        raw = _read_file(self._sidecar(hostname), EVENTS_PATH)
        return [json.loads(line) for line in (raw or b"").decode().splitlines() if line.strip()]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        containers = [c for c in [self.agent, *self.sidecars.values()] if c is not None]
        try:
            with ThreadPoolExecutor(max_workers=max(1, len(containers))) as pool:
                list(pool.map(_force_remove, containers))
        finally:
            if self.network is not None:
                try:
                    self.network.remove()
                except NotFound:
                    pass

    def _sidecar(self, hostname: str) -> Container:
        if hostname not in self.sidecars:
            raise ValueError(f"no service {hostname!r} in this sandbox (available: {', '.join(sorted(self.sidecars))})")
        return self.sidecars[hostname]

    @staticmethod
    def _require(container: Container | None, role: str) -> Container:
        if container is None:
            raise RuntimeError(f"the sandbox {role} container is not running; use `with Sandbox(...) as box:`")
        return container


def remove_leftovers(client: docker.DockerClient, run_id: str | None = None) -> int:
    """Remove containers and networks of runs that were killed before cleaning up (all runs, or one)."""
    label = f"{RUN_LABEL}={run_id}" if run_id else RUN_LABEL
    containers = client.containers.list(all=True, filters={"label": label})
    with ThreadPoolExecutor(max_workers=max(1, len(containers))) as pool:
        list(pool.map(_force_remove, containers))
    networks = client.networks.list(filters={"label": label})
    for network in networks:
        try:
            network.remove()
        except NotFound:
            pass
    return len(containers) + len(networks)


def _nsenter_remove_default_route(container: Container) -> bool:
    local_engine = container.client.api.base_url.startswith("http+docker://localhost")
    if os.geteuid() != 0 or not local_engine or not (shutil.which("nsenter") and shutil.which("ip")):
        return False
    container.reload()
    pid = container.attrs["State"]["Pid"]
    if not pid or not Path(f"/proc/{pid}/ns/net").exists():
        return False
    enter = ["nsenter", "--target", str(pid), "--net"]
    subprocess.run([*enter, "ip", "route", "del", "default"], capture_output=True)
    left = subprocess.run([*enter, "ip", "route", "show", "default"], capture_output=True, text=True)
    return left.returncode == 0 and not left.stdout.strip()


def _force_remove(container: Container) -> None:
    try:
        container.remove(force=True, v=True)
    except NotFound:
        pass


def _wait_until_ready(container: Container, spec: ServiceSpec) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        logs = container.logs(stdout=True, stderr=True).decode("utf-8", "replace")
        if READY_LINE in logs:
            return
        container.reload()
        if container.status in ("exited", "dead"):
            raise RuntimeError(f"service {spec.kind} at {spec.hostname} exited: {logs.strip()[-300:]}")
        time.sleep(0.01)
    raise RuntimeError(f"service {spec.kind} at {spec.hostname} not ready after {READY_SECONDS:.0f} s")


def _exec(container: Container, command: str, timeout: float, workdir: str) -> ExecResult:
    started = time.monotonic()
    argv = ["timeout", "-k", str(KILL_AFTER_SECONDS), f"{timeout}s", "bash", "-lc", command]
    exec_id = container.client.api.exec_create(container.id, argv, workdir=workdir)["Id"]
    chunks: list[bytes] = []

    def collect() -> None:
        for chunk in container.client.api.exec_start(exec_id, stream=True):
            chunks.append(chunk)

    reader = threading.Thread(target=collect, daemon=True)
    reader.start()
    reader.join(timeout + KILL_AFTER_SECONDS + HOST_GRACE_SECONDS)
    seconds = time.monotonic() - started
    output = b"".join(chunks).decode("utf-8", "replace")
    if reader.is_alive():
        return ExecResult(124, output, True, seconds)
    exit_code = container.client.api.exec_inspect(exec_id)["ExitCode"]
    timed_out = exit_code in (124, 137) and seconds >= timeout
    return ExecResult(124 if timed_out else exit_code, output, timed_out, seconds)


def _read_file(container: Container, path: str) -> bytes | None:
    try:
        stream, _ = container.get_archive(path)
    except NotFound:
        return None
    with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
        member = archive.next()
        if member is None or not member.isfile():
            raise ValueError(f"{path} is not a regular file")
        return archive.extractfile(member).read()


def _tar_single(name: str, data: bytes, mode: int) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime = len(data), mode, int(time.time())
        archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _tar_directory(directory: Path) -> bytes:
    if not directory.is_dir():
        raise ValueError(f"seed directory {directory} does not exist")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for item in sorted(directory.iterdir()):
            archive.add(item, arcname=item.name, filter=_owned_by_root)
    return buffer.getvalue()


def _owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info
