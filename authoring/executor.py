"""Where a batch's jobs run: threads of this process (`local`) or tasks on a Ray cluster (`ray`).

The driver (this process) plans the jobs and is the only writer of their results: every finished job is handed to
`on_done` in the driver's thread, in the order jobs finish. A job names the folders it needs (`Shipment`: a pair,
the templates) with their content hash; under Ray each folder goes once into the object store, every worker
unpacks it on its node and hashes it again before running, and a mismatch is refused. A node whose toolkit
version or base image differs from the driver's is refused. A lost worker or node is retried a bounded number of
times, then handed back as an error (the caller records it as such, never as a verdict). Ctrl-C stops the jobs
(cooperatively, then by force after a grace) and a janitor on every node removes the containers of runs whose
process is gone, which it also does before any batch starts.
"""

from __future__ import annotations

import io
import logging
import os
import shutil
import socket
import tarfile
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docker

from authoring.errors import BadInput, V3astError

EXECUTORS = ("local", "ray")
SLOT = "docker_slot"
"""The custom resource a Ray node advertises: how many runs its Docker engine holds at once."""
DEFAULT_ADDRESS_POOLS = 31
"""Networks Docker's default address pools hold: 172.17–31.0.0/16 (15) and 192.168.0.0/16 in /20s (16)."""
SLOT_HEADROOM = 4
"""Networks kept free beyond the long-lived ones: a Stage II attempt's build network, a judge's, a stray run."""
MAX_ATTEMPTS = 3
STOP_GRACE_SECONDS = 45.0
NODE_ANSWER_SECONDS = 60.0

Call = Callable[[docker.DockerClient, list[Path], threading.Event], Any]
"""A job's work: the node's Docker client, the job's folders as they are on that node, and a stop event."""


class ExecutorError(V3astError, RuntimeError):
    """A job that could not be run where it was sent: an infrastructure failure, never a verdict."""


class NodeRefused(ExecutorError):
    pass


class ShipmentRefused(ExecutorError):
    pass


class Stopped(ExecutorError):
    pass


@dataclass(frozen=True)
class Shipment:
    folder: Path
    digest: str
    """`content_hash(folder)` as the driver planned it (for a pair: the hash admission checks)."""


@dataclass
class Job:
    key: Any
    call: Call
    shipments: tuple[Shipment, ...] = ()


@dataclass
class Done:
    job: Job
    value: Any = None
    error: BaseException | None = None
    node: str = ""
    executor: str = "local"
    attempts: list[dict[str, str]] = field(default_factory=list)
    """The earlier attempts that failed for infrastructure reasons: node (when known) and error."""

    @property
    def provenance(self) -> dict[str, Any]:
        return {"name": self.executor, "node": self.node, "failed_attempts": self.attempts}

    def error_line(self) -> str:
        return f"{type(self.error).__name__}: {self.error}" if self.error is not None else ""


OnDone = Callable[[Done], None]
OnTick = Callable[[int], None]


@dataclass(frozen=True)
class NodeIdentity:
    toolkit: str
    base_image: str
    base_image_id: str

    @classmethod
    def here(cls, client: docker.DockerClient, base_image: str) -> "NodeIdentity":
        from docker.errors import ImageNotFound

        try:
            image_id = client.images.get(base_image).id
        except ImageNotFound:
            image_id = "missing"
        return cls(toolkit_version(), base_image, image_id)

    def refusal(self, driver: "NodeIdentity", node: str) -> str | None:
        """Why this node cannot run the driver's jobs, in one line; None when it can."""
        if self.toolkit != driver.toolkit:
            return (f"node {node} refused: toolkit v3ast {self.toolkit} there, {driver.toolkit} on the driver "
                    f"(install the same version on every node)")
        if self.base_image_id != driver.base_image_id:
            return (f"node {node} refused: base image {self.base_image} is {self.base_image_id[:19]} there, "
                    f"{driver.base_image_id[:19]} on the driver (`docker save` it there and `docker load` it here)")
        return None


def toolkit_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("v3ast")
    except PackageNotFoundError:
        return "not installed"


def docker_slots(client: docker.DockerClient) -> tuple[int, int, int]:
    """(recommended slots, address-pool capacity, long-lived networks): each run creates one internal network,
    and the engine's address pools hold a fixed number of them."""
    from authoring.sandbox.teardown import RUN_LABEL

    pools = client.info().get("DefaultAddressPools") or []
    capacity = sum(2 ** (int(p["Size"]) - int(p["Base"].rsplit("/", 1)[1])) for p in pools) or DEFAULT_ADDRESS_POOLS
    lasting = [n for n in client.networks.list() if n.attrs.get("Driver") == "bridge"
               and RUN_LABEL not in (n.attrs.get("Labels") or {})]
    return max(1, capacity - len(lasting) - SLOT_HEADROOM), capacity, len(lasting)


def slot_advice(client: docker.DockerClient) -> str:
    slots, capacity, lasting = docker_slots(client)
    return (f"its address pools hold {capacity} networks, {lasting} long-lived: at most {slots} runs at once "
            f"(one network each) — a Ray node on it: `ray start … --resources '{{\"{SLOT}\": {slots}}}'`; "
            f"more needs `default-address-pools` in /etc/docker/daemon.json")


def make_executor(name: str, client: docker.DockerClient) -> "Executor":
    if name == "local":
        return LocalExecutor(client)
    if name == "ray":
        return RayExecutor(client)
    raise BadInput(f"unknown executor {name!r} (available: {', '.join(EXECUTORS)})")


EXECUTOR_HELP = ("local: threads on this machine's engine; ray: tasks on the Ray cluster at RAY_ADDRESS (or a local "
                 "one started here), one `docker_slot` each (pip install 'v3ast[ray]').")


def open_executor(name: str, client: docker.DockerClient, base_image: str, say: Callable[[str], None]) -> "Executor":
    """The executor, with leftovers of dead processes removed on every node and refused nodes named."""
    executor = make_executor(name, client)
    for line in executor.prepare(base_image):
        say(line)
    return executor


class Executor:
    name = "local"

    def prepare(self, base_image: str) -> list[str]:
        """Before a batch: remove leftovers of dead processes on every node, check the nodes; lines to print."""
        raise NotImplementedError

    def run(self, jobs: list[Job], on_done: OnDone, *, workers: int, base_image: str,
            on_tick: OnTick = lambda running: None) -> None:
        raise NotImplementedError


class LocalExecutor(Executor):
    """Threads of this process on this machine's engine."""

    name = "local"

    def __init__(self, client: docker.DockerClient):
        self.client = client

    def prepare(self, base_image: str) -> list[str]:
        removed = janitor(self.client)
        return [f"removed {removed} container(s)/network(s) left by killed runs"] if removed else []

    def run(self, jobs: list[Job], on_done: OnDone, *, workers: int, base_image: str,
            on_tick: OnTick = lambda running: None) -> None:
        stop, node = threading.Event(), socket.gethostname()
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = {pool.submit(job.call, self.client, [s.folder for s in job.shipments], stop): job
                       for job in jobs}
            pending = set(futures)
            try:
                while pending:
                    on_tick(sum(f.running() for f in pending))
                    finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                    for future in finished:
                        error = future.exception()
                        on_done(Done(futures[future], None if error else future.result(), error, node))
            except BaseException:
                stop.set()
                for future in pending:
                    future.cancel()
                raise
            finally:
                on_tick(0)


class RayExecutor(Executor):
    """Tasks on the Ray cluster at RAY_ADDRESS, or on a local one started here; each task takes one `docker_slot`
    of its node and runs on that node's engine."""

    name = "ray"

    def __init__(self, client: docker.DockerClient):
        try:
            import ray
        except ImportError:
            raise BadInput("--executor ray needs Ray: pip install 'v3ast[ray]'") from None
        self.ray, self.client = ray, client
        if not ray.is_initialized():
            quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
            if os.environ.get("RAY_ADDRESS"):
                ray.init(address=os.environ["RAY_ADDRESS"], **quiet)
            else:
                ray.init(resources={SLOT: docker_slots(client)[0]}, include_dashboard=False, **quiet)
        if not ray.cluster_resources().get(SLOT):
            raise BadInput(f"no node of the Ray cluster advertises `{SLOT}`; start nodes with "
                             f"`ray start … --resources '{{\"{SLOT}\": N}}'` (`v3ast doctor` says N)")

    def prepare(self, base_image: str) -> list[str]:
        driver = NodeIdentity.here(self.client, base_image)
        lines = []
        for node, answer in self._on_every_node(_node_janitor, base_image):
            if isinstance(answer, BaseException):
                lines.append(f"node {node} did not answer ({type(answer).__name__}); its runs may fail and be retried")
                continue
            label, identity, removed = answer
            if removed:
                lines.append(f"node {label}: removed {removed} container(s)/network(s) left by killed runs")
            if refusal := identity.refusal(driver, label):
                lines.append(refusal)
        return lines

    def run(self, jobs: list[Job], on_done: OnDone, *, workers: int, base_image: str,
            on_tick: OnTick = lambda running: None) -> None:
        ray = self.ray
        from ray.exceptions import RayError, RayTaskError, TaskCancelledError

        driver = NodeIdentity.here(self.client, base_image)
        shipped = {s: ray.put(pack(s.folder)) for job in jobs for s in job.shipments}
        stop = ray.remote(StopSignal).options(num_cpus=0).remote()
        task = ray.remote(_run_job).options(num_cpus=0, resources={SLOT: 1}, max_retries=0)
        queue, in_flight = deque((job, []) for job in jobs), {}
        try:
            while queue or in_flight:
                while queue and len(in_flight) < max(1, workers):
                    job, attempts = queue.popleft()
                    ref = task.remote(job.call, driver, stop, [s.digest for s in job.shipments],
                                      *[shipped[s] for s in job.shipments])
                    in_flight[ref] = (job, attempts)
                on_tick(len(in_flight))
                ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=0.5)
                for ref in ready:
                    job, attempts = in_flight.pop(ref)
                    try:
                        value, node = ray.get(ref)
                    except RayTaskError as error:
                        cause = error.cause if isinstance(error.cause, BaseException) else error
                        retry = isinstance(cause, NodeRefused) and len(attempts) + 1 < MAX_ATTEMPTS
                        failed = {"node": getattr(cause, "node", ""), "error": f"{type(cause).__name__}: {cause}"}
                        if retry:
                            queue.append((job, [*attempts, failed]))
                        else:
                            on_done(Done(job, error=cause, node=failed["node"], executor=self.name, attempts=attempts))
                        continue
                    except (RayError, TaskCancelledError) as error:  # a lost worker or node
                        failed = {"node": "", "error": f"{type(error).__name__}: {str(error)[:300]}"}
                        if len(attempts) + 1 < MAX_ATTEMPTS:
                            queue.append((job, [*attempts, failed]))
                        else:
                            lost = ExecutorError(f"lost {MAX_ATTEMPTS} times, last: {failed['error']}")
                            on_done(Done(job, error=lost, executor=self.name, attempts=attempts))
                        continue
                    on_done(Done(job, value, node=node, executor=self.name, attempts=attempts))
        except BaseException:
            self._stop(stop, list(in_flight))
            raise
        finally:
            on_tick(0)

    def _stop(self, stop, refs: list) -> None:
        """Cooperative stop (each run ends at its next command and tears down), then force after a grace, then
        the janitor on every node removes what the killed workers left."""
        ray = self.ray
        ray.get(stop.set.remote())
        for ref in refs:
            ray.cancel(ref)
        _, stuck = ray.wait(refs, num_returns=len(refs), timeout=STOP_GRACE_SECONDS) if refs else ([], [])
        for ref in stuck:
            ray.cancel(ref, force=True)
        if stuck:
            ray.wait(stuck, num_returns=len(stuck), timeout=15)
        self._on_every_node(_node_janitor, "")

    def _on_every_node(self, function: Callable, *args: Any) -> list[tuple[str, Any]]:
        """`function(*args)` on every live node with slots: (node id, its answer or the error)."""
        ray = self.ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        nodes = [n["NodeID"] for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get(SLOT)]
        remote = ray.remote(function)
        refs = [remote.options(num_cpus=0, max_retries=0, scheduling_strategy=NodeAffinitySchedulingStrategy(
            node, soft=False)).remote(*args) for node in nodes]
        ray.wait(refs, num_returns=len(refs), timeout=NODE_ANSWER_SECONDS)
        answers = []
        for node, ref in zip(nodes, refs):
            try:
                answers.append((node[:8], ray.get(ref, timeout=0)))
            except Exception as error:  # a node lost or too slow: said, not fatal
                answers.append((node[:8], error))
        return answers


class StopSignal:
    """A Ray actor the driver sets on Ctrl-C; every running task polls it."""

    def __init__(self) -> None:
        self.stopped = False

    def set(self) -> None:
        self.stopped = True

    def is_set(self) -> bool:
        return self.stopped


def janitor(client: docker.DockerClient) -> int:
    """Remove the runs of processes that are gone (a run of a live process, another batch's, is left alone)."""
    from docker.errors import NotFound

    from authoring.sandbox.teardown import remove_leftovers

    for _ in range(5):
        try:
            return remove_leftovers(client)
        except NotFound:  # a container vanished while listed: another process removed its run meanwhile
            time.sleep(0.2)
    return remove_leftovers(client)


def node_label() -> str:
    import ray

    return f"{ray.util.get_node_ip_address()}/{ray.get_runtime_context().get_node_id()[:8]}"


_clients: dict[int, docker.DockerClient] = {}


def node_client() -> docker.DockerClient:
    from authoring.sandbox.daemon import connect

    if os.getpid() not in _clients:
        _clients[os.getpid()] = connect()
    return _clients[os.getpid()]


def _node_janitor(base_image: str) -> tuple[str, NodeIdentity, int]:
    client = node_client()
    identity = NodeIdentity.here(client, base_image) if base_image else None
    return node_label(), identity, janitor(client)


def _run_job(call: Call, driver: NodeIdentity, stop_signal, digests: list[str], *archives: bytes) -> tuple[Any, str]:
    """A job on a worker: check the node, receive and re-hash the folders, run, wait for the run's teardown."""
    from authoring.sandbox.teardown import drain_teardowns

    node, client = node_label(), node_client()
    if refusal := NodeIdentity.here(client, driver.base_image).refusal(driver, node):
        raise _with_node(NodeRefused(refusal), node)
    scratch = Path(tempfile.mkdtemp(prefix="v3ast-shipment-"))
    stop, finished = threading.Event(), threading.Event()

    def watch() -> None:
        import ray

        while not finished.wait(0.5):
            if ray.get(stop_signal.is_set.remote()):
                stop.set()
                return

    threading.Thread(target=watch, name="v3ast-stop-watch", daemon=True).start()
    try:
        folders = [receive(archive, digest, node, scratch / str(i))
                   for i, (archive, digest) in enumerate(zip(archives, digests))]
        if stop.is_set():
            raise Stopped("stopped before it started")
        return call(client, folders, stop), node
    finally:
        finished.set()
        drain_teardowns()
        shutil.rmtree(scratch, ignore_errors=True)


def _with_node(error: ExecutorError, node: str) -> ExecutorError:
    error.node = node
    return error


def pack(folder: Path) -> bytes:
    """The folder as a tar archive (its name as the top entry), without caches."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        archive.add(folder, arcname=folder.name, filter=lambda i: None if "__pycache__" in i.name else i)
    return buffer.getvalue()


def unpack(data: bytes, into: Path) -> Path:
    """Extract an archive of `pack` under `into`; the folder it holds."""
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        top = archive.getmembers()[0].name.split("/")[0]
        archive.extractall(into, filter="data")
    return into / top


def receive(data: bytes, digest: str, node: str, into: Path) -> Path:
    """A shipped folder unpacked on this node and hashed again; a mismatch is refused."""
    from authoring.pairs.format import content_hash

    folder = unpack(data, into)
    found = content_hash(folder)
    if found != digest:
        raise _with_node(ShipmentRefused(f"{folder.name}: content hash on node {node} is {found[:16]}, the driver "
                                         f"planned {digest[:16]}: refused"), node)
    return folder
