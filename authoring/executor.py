"""Where a batch's jobs run: threads of this process (`local`) or runner actors on a Ray cluster (`ray`).

The driver (this process) plans the jobs and is the only writer of their results: every finished job is handed to
`on_done` in the driver's thread, in the order jobs finish. A job names the folders it needs (`Shipment`: a pair,
the templates) with their content hash; under Ray each folder goes once into the object store, the runner unpacks
it on its node and hashes it again before each job, and a mismatch is refused. A node whose toolkit version or
base image differs from the driver's is refused. A job whose runner or node is lost is retried elsewhere a bounded
number of times, then handed back as an error (the caller records it as such, never as a verdict). Ctrl-C stops
the jobs (cooperatively, then by ending the runners after a grace) and a janitor on every node removes the
containers of runs whose process is gone, which it also does before any batch starts.
"""

from __future__ import annotations

import atexit
import io
import logging
import os
import shlex
import shutil
import socket
import sys
import tarfile
import tempfile
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docker

from authoring.errors import BadInput, V3astError
from authoring.retry import RetriesExhausted, RetryPolicy, with_backoff
from authoring.settings import settings
from authoring.version import toolkit_version

EXECUTORS = ("local", "ray")
SLOT = "docker_slot"
"""The custom resource a Ray node advertises: how many runs its Docker engine holds at once."""
DEFAULT_ADDRESS_POOLS = 31
"""Networks Docker's default address pools hold: 172.17–31.0.0/16 (15) and 192.168.0.0/16 in /20s (16)."""
SLOT_HEADROOM = 4
"""Networks kept free beyond the long-lived ones: a Stage II attempt's build network, a judge's, a stray run."""
MAX_ATTEMPTS = 3
"""Runs of a job before it fails for infrastructure reasons (a lost node or engine puts it back in the queue)."""
LEFTOVER_REMOVAL = RetryPolicy(name="leftover removal", attempts=5, base_delay=0.5, max_delay=0.5, jitter=False)
"""Removing killed runs' leftovers races with the engine removing them too: a few quick retries."""
WAITING_PER_RUNNER = 1
"""Jobs a runner holds ready beyond its slots: one starts the moment a run ends, not a round trip to the driver
later (a runner never runs more jobs at once than its slots)."""
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


class ImageRefused(ExecutorError):
    pass


class EngineLost(ExecutorError):
    """The node's Docker engine stopped answering: what ran there is not a verdict, and nothing more goes there."""


class BatchIncomplete(V3astError):
    """A batch that ended with runs left for infrastructure reasons (a lost engine or node, a refused node)."""


def stop_if_engine_lost(executor: Executor, finished: Done) -> None:
    """A lost engine on this machine ends the batch: nothing more is scheduled (under Ray the node is dropped and
    its runs retried elsewhere)."""
    if isinstance(finished.error, EngineLost) and executor.name == "local":
        raise finished.error


def resume_command(also: str = "") -> str:
    """This command line again, with the option `also` added unless it is there."""
    arguments = sys.argv[1:] + ([also] if also and also not in sys.argv[1:] else [])
    return shlex.join(["v3ast", *arguments])


def engine_answers(client: docker.DockerClient, seconds: float = 5.0) -> str:
    """"" when the engine answers a ping within `seconds`, else why not (one line)."""
    try:
        client.api._result(client.api._get(client.api._url("/_ping"), timeout=seconds))
        return ""
    except Exception as error:  # any failure to answer is the answer
        return f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''}"


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
    judging: str = ""
    """The judging digest of the code installed there (authoring/judging.py)."""

    @classmethod
    def here(cls, client: docker.DockerClient, base_image: str) -> NodeIdentity:
        from docker.errors import ImageNotFound

        try:
            image_id = client.images.get(base_image).id
        except ImageNotFound:
            image_id = "missing"
        from authoring.judging import judging_digest

        return cls(toolkit_version(), base_image, image_id, judging_digest())

    @property
    def lacks_base_image(self) -> bool:
        return self.base_image_id == "missing"

    def refusal(self, driver: NodeIdentity, node: str) -> str | None:
        """Why this node cannot run the driver's jobs, in one line; None when it can (a node that lacks the base
        image can: the driver sends it)."""
        if self.toolkit != driver.toolkit:
            return (f"node {node} refused: toolkit v3ast {self.toolkit} there, {driver.toolkit} on the driver "
                    f"(install the same version on every node)")
        if self.judging != driver.judging:
            return (f"node {node} refused: its judging code differs from the driver's (judging "
                    f"{self.judging[:12]} there, {driver.judging[:12]} here: install the same checkout on every node)")
        if self.base_image_id != driver.base_image_id and not self.lacks_base_image:
            return (f"node {node} refused: base image {self.base_image} is {self.base_image_id[:19]} there, "
                    f"{driver.base_image_id[:19]} on the driver (`docker save` it there and `docker load` it here)")
        return None


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


def make_executor(name: str, client: docker.DockerClient) -> Executor:
    if name == "local":
        return LocalExecutor(client)
    if name == "ray":
        return RayExecutor(client)
    raise BadInput(f"unknown executor {name!r} (available: {', '.join(EXECUTORS)})")


EXECUTOR_HELP = ("local: threads on this machine's engine; ray: tasks on the Ray cluster at RAY_ADDRESS (or a local "
                 "one started here), one `docker_slot` each (pip install 'v3ast[ray]').")


def open_executor(name: str, client: docker.DockerClient, base_image: str, say: Callable[[str], None]) -> Executor:
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
        said = janitor(self.client)
        return [said] if said else []

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
    """Jobs on the Ray cluster at RAY_ADDRESS, or on a local one started here. One runner actor per node holds
    some of the node's `docker_slot`s and runs that many jobs at once in its threads, on the node's engine,
    like the local executor: its process imports the toolkit once, and a run's removal overlaps the next run's
    start instead of holding a slot."""

    name = "ray"

    def __init__(self, client: docker.DockerClient):
        try:
            import ray
        except ImportError:
            raise BadInput("--executor ray needs Ray: pip install 'v3ast[ray]'") from None
        self.ray, self.client = ray, client
        if not ray.is_initialized():
            quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
            if address := settings().ray_address:
                ray.init(address=address, **quiet)
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
            label, identity, said = answer
            if said:
                lines.append(f"node {label}: {said}")
            if refusal := identity.refusal(driver, label):
                lines.append(refusal)
            elif identity.lacks_base_image:
                lines.append(f"node {label} lacks {base_image}: the driver sends it (docker save, docker load)")
        return lines

    def run(self, jobs: list[Job], on_done: OnDone, *, workers: int, base_image: str,
            on_tick: OnTick = lambda running: None) -> None:
        ray = self.ray
        from ray.exceptions import RayActorError, RayError, RayTaskError

        runners = _Runners(ray, self.client, NodeIdentity.here(self.client, base_image), max(1, workers))
        shipped = {s: ray.put(pack(s.folder)) for job in jobs for s in job.shipments}
        queue, in_flight = deque((job, []) for job in jobs), {}

        finished: list[Done] = []

        def retry_or_fail(job: Job, attempts: list, failed: dict[str, str]) -> None:
            if len(attempts) + 1 < MAX_ATTEMPTS:
                queue.append((job, [*attempts, failed]))
            else:
                lost = ExecutorError(f"failed {MAX_ATTEMPTS} times, last: {failed['error']}")
                finished.append(Done(job, error=lost, node=failed["node"], executor=self.name, attempts=attempts))

        def dispatch() -> None:
            runners.place()
            for runner in runners.free():
                while queue and runner.busy < runner.slots + WAITING_PER_RUNNER:
                    job, attempts = queue.popleft()
                    ref = runner.actor.run.remote(job.call, [s.digest for s in job.shipments],
                                                  *[shipped[s] for s in job.shipments])
                    runner.busy += 1
                    in_flight[ref] = (job, attempts, runner)

        try:
            while queue or in_flight:
                dispatch()
                if queue and not in_flight and not runners.live():
                    error = runners.none_left()
                    while queue:
                        job, attempts = queue.popleft()
                        on_done(Done(job, error=error, executor=self.name, attempts=attempts))
                    break
                on_tick(len(in_flight))
                ready, _ = ray.wait([*in_flight, *runners.starting()], num_returns=1, timeout=0.5)
                for ref in ready:
                    if ref not in in_flight:
                        runners.started(ref)
                        continue
                    job, attempts, runner = in_flight.pop(ref)
                    runner.busy -= 1
                    try:
                        value = ray.get(ref)
                    except RayTaskError as error:
                        cause = error.cause if isinstance(error.cause, BaseException) else error
                        if isinstance(cause, (NodeRefused, EngineLost)):
                            runners.refuse(runner, str(cause))
                            retry_or_fail(job, attempts, {"node": runner.node,
                                                          "error": f"{type(cause).__name__}: {cause}"})
                        else:
                            finished.append(Done(job, error=cause, node=runner.node, executor=self.name,
                                                 attempts=attempts))
                        continue
                    except (RayActorError, RayError) as error:  # a lost worker or node
                        runners.lose(runner)
                        retry_or_fail(job, attempts, {"node": runner.node,
                                                      "error": f"{type(error).__name__}: {str(error)[:300]}"})
                        continue
                    finished.append(Done(job, value, node=runner.node, executor=self.name, attempts=attempts))
                dispatch()  # the freed slots get their next jobs before this process writes the results
                while finished:
                    on_done(finished.pop(0))
        except BaseException:
            runners.stop(list(in_flight))
            raise
        finally:
            runners.close(wait=bool(in_flight or runners.excluded))
            if runners.excluded or in_flight:  # a runner ended with runs of its own: remove what it left
                self._on_every_node(_node_janitor, "")
            on_tick(0)

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
        for node, ref in zip(nodes, refs, strict=True):
            try:
                answers.append((node[:8], ray.get(ref, timeout=0)))
            except Exception as error:  # a node lost or too slow: said, not fatal
                answers.append((node[:8], error))
        return answers


@dataclass(eq=False)
class _Runner:
    actor: Any
    node_id: str
    slots: int
    ready: Any
    """The reference that resolves when the actor has started (to its node label and refusal)."""
    node: str = ""
    state: str = "starting"
    busy: int = 0
    sent_image: bool = False


class _Runners:
    """The batch's runner actors: at most one per node, `workers` slots in all, placed on nodes with slots that
    have not refused the driver or lost a runner in this batch."""

    def __init__(self, ray, client: docker.DockerClient, driver: NodeIdentity, workers: int):
        self.ray, self.client, self.driver, self.workers = ray, client, driver, workers
        self.base_archive = None
        """The base image as a `docker save` archive in the object store, made when a node first lacks it."""
        self.all: list[_Runner] = []
        self.excluded: set[str] = set()
        self.refusals: list[str] = []

    def live(self) -> list[_Runner]:
        return [r for r in self.all if r.state in ("starting", "ready")]

    def free(self) -> list[_Runner]:
        return [r for r in self.all if r.state == "ready" and r.busy < r.slots + WAITING_PER_RUNNER]

    def starting(self) -> list:
        return [r.ready for r in self.all if r.state == "starting"]

    def place(self) -> None:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        wanted = self.workers - sum(r.slots for r in self.live())
        if wanted <= 0:
            return
        hosting = {r.node_id for r in self.live()}
        nodes = sorted(((n["NodeID"], int(n["Resources"].get(SLOT, 0))) for n in self.ray.nodes()
                        if n.get("Alive") and n["NodeID"] not in self.excluded | hosting),
                       key=lambda node: -node[1])
        for node_id, slots in nodes:
            if wanted <= 0 or slots <= 0:
                break
            slots = min(slots, wanted)
            actor = self.ray.remote(NodeRunner).options(
                num_cpus=0, resources={SLOT: slots}, max_concurrency=slots + WAITING_PER_RUNNER + 2, max_restarts=0,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False)).remote(self.driver, slots)
            self.all.append(_Runner(actor, node_id, slots, actor.start.remote()))
            wanted -= slots

    def started(self, ready) -> None:
        """A runner answered: ready, refused, or lacking the base image (then sent it, once per batch)."""
        runner = next(r for r in self.all if r.ready is ready)
        try:
            runner.node, refusal, lacking = self.ray.get(ready)
        except Exception as error:  # the actor could not start (its node is lost) or the image was refused
            cause = getattr(error, "cause", None)
            runner.node = runner.node or runner.node_id[:8]
            self.lose(runner, str(cause) if isinstance(cause, ImageRefused) else
                      f"node {runner.node}: runner did not start ({type(error).__name__}: {str(error)[:200]})")
            return
        if refusal:
            self.refuse(runner, refusal)
        elif lacking and not runner.sent_image:
            if self.base_archive is None:
                self.base_archive = self.ray.put(image_archive(self.client, self.driver.base_image))
            runner.sent_image = True
            runner.ready = runner.actor.load_image.remote(self.driver.base_image, self.driver.base_image_id,
                                                          self.base_archive)
        elif lacking:
            self.lose(runner, f"node {runner.node}: still lacks {self.driver.base_image} after loading it")
        else:
            runner.state = "ready"

    def refuse(self, runner: _Runner, refusal: str) -> None:
        self.refusals.append(refusal)
        self.lose(runner)

    def lose(self, runner: _Runner, why: str = "") -> None:
        if why:
            self.refusals.append(why)
        if runner.state != "gone":
            runner.state = "gone"
            self.excluded.add(runner.node_id)
            self.ray.kill(runner.actor)

    def none_left(self) -> ExecutorError:
        if self.refusals:
            return NodeRefused(self.refusals[-1])
        return ExecutorError(f"no node of the Ray cluster with a free `{SLOT}` is left for this batch")

    def stop(self, refs: list) -> None:
        """Cooperative stop (each run ends at its next command and tears down), then the runners are ended after
        a grace (what a forced end leaves, the janitor removes)."""
        for runner in self.live():
            runner.actor.stop.remote()
        if refs:
            self.ray.wait(refs, num_returns=len(refs), timeout=STOP_GRACE_SECONDS)

    def close(self, wait: bool = True) -> None:
        """Let the runners finish their background removals (bounded), then end them. Without `wait` that happens
        in a thread of this process, which exits only after it (as the local executor drains its removals)."""
        drains = [r.actor.drain.remote() for r in self.all if r.state == "ready"]
        actors = [r.actor for r in self.all if r.state != "gone"]
        for runner in self.all:
            runner.state = "gone"

        def finish() -> None:
            if drains:
                self.ray.wait(drains, num_returns=len(drains), timeout=NODE_ANSWER_SECONDS)
            for actor in actors:
                self.ray.kill(actor)

        if wait:
            finish()
        else:
            closing = threading.Thread(target=finish, name="v3ast-runners-close")
            closing.start()
            _closing.append(closing)


_closing: list[threading.Thread] = []


@atexit.register
def _wait_for_closing_runners() -> None:
    for closing in _closing:
        closing.join(NODE_ANSWER_SECONDS)


class NodeRunner:
    """A Ray actor on one node: runs jobs in its threads on the node's engine. Before each job it checks the node
    against the driver and hashes the job's folders again (a mismatch is refused); a folder is unpacked once per
    runner and unpacked afresh when a job left it changed. At most `slots` jobs run at once; a job sent beyond them
    is made ready and waits for a slot. Its stop event is what every job it runs polls."""

    def __init__(self, driver: NodeIdentity, slots: int):
        self.driver, self.stopping = driver, threading.Event()
        self.slots = threading.Semaphore(slots)
        self.scratch = Path(tempfile.mkdtemp(prefix="v3ast-shipments-"))
        self.received: dict[str, Path] = {}
        self.receiving = threading.Lock()

    def start(self) -> tuple[str, str | None, bool]:
        """(node label, why it is refused or None, whether it lacks the base image)."""
        node = node_label()
        identity = NodeIdentity.here(node_client(), self.driver.base_image)
        return node, identity.refusal(self.driver, node), identity.lacks_base_image

    def load_image(self, name: str, image_id: str, archive: bytes) -> tuple[str, str | None, bool]:
        load_image(node_client(), name, image_id, archive, node_label())
        return self.start()

    def run(self, call: Call, digests: list[str], *archives: bytes) -> Any:
        node, client = node_label(), node_client()
        if refusal := NodeIdentity.here(client, self.driver.base_image).refusal(self.driver, node):
            raise _with_node(NodeRefused(refusal), node)
        folders = [self._folder(archive, digest, node) for archive, digest in zip(archives, digests, strict=True)]
        with self.slots:
            if self.stopping.is_set():
                raise Stopped("stopped before it started")
            return call(client, folders, self.stopping)

    def _folder(self, archive: bytes, digest: str, node: str) -> Path:
        from authoring.pairs.format import content_hash

        with self.receiving:
            folder = self.received.get(digest)
            if folder is None or content_hash(folder) != digest:
                folder = receive(archive, digest, node, Path(tempfile.mkdtemp(dir=self.scratch)))
                self.received[digest] = folder
            return folder

    def stop(self) -> None:
        self.stopping.set()

    def drain(self) -> None:
        """The end of a batch: wait for the background removals, drop the received folders."""
        from authoring.sandbox.teardown import drain_teardowns

        drain_teardowns()
        shutil.rmtree(self.scratch, ignore_errors=True)


def image_archive(client: docker.DockerClient, name: str) -> bytes:
    """The image as `docker save` writes it (its id and tag kept)."""
    return b"".join(client.images.get(name).save(named=True))


def load_image(client: docker.DockerClient, name: str, image_id: str, archive: bytes, node: str) -> None:
    """Make `name` the image `image_id` on this engine: tag it when the engine has that id (the engine is the
    cache, keyed by image id), else `docker load` the archive; an archive holding another image is refused, and
    so is a `name` already tagged to another image (it is not overwritten)."""
    from docker.errors import ImageNotFound

    repository, _, tag = name.rpartition(":") if ":" in name.rsplit("/", 1)[-1] else (name, "", "latest")
    try:
        present = client.images.get(name).id
    except ImageNotFound:
        present = ""
    if present and present != image_id:
        raise ImageRefused(f"node {node}: {name} is {present[:19]} there, {image_id[:19]} on the driver: refused "
                           f"(not overwritten)")
    if present:
        return
    try:
        client.images.get(image_id).tag(repository, tag)
        return
    except ImageNotFound:
        pass
    loaded = [image.id for image in client.images.load(archive)]
    if image_id not in loaded:
        raise ImageRefused(f"node {node}: the archive sent for {name} holds {', '.join(i[:19] for i in loaded)}, "
                           f"not {image_id[:19]}: refused")
    client.images.get(image_id).tag(repository, tag)


def janitor(client: docker.DockerClient) -> str:
    """Remove the runs of processes that are gone (a run of a live process, another batch's, is left alone); what
    it did in one line, "" when there was nothing. A leftover it cannot remove is said, never fatal to a batch."""
    from docker.errors import APIError

    from authoring.sandbox.teardown import remove_leftovers

    try:
        removed, _ = with_backoff(lambda: remove_leftovers(client), LEFTOVER_REMOVAL, retry_on=(APIError,))
    except RetriesExhausted as error:  # one vanished while listed, or a network still had an endpoint going away
        problem = str(error.last).splitlines()[0][:200]
        return f"could not remove every leftover of killed runs ({problem}); `v3ast doctor --fix` tries again"
    return f"removed {removed} container(s)/network(s) left by killed runs" if removed else ""


def node_label() -> str:
    import ray

    return f"{ray.util.get_node_ip_address()}/{ray.get_runtime_context().get_node_id()[:8]}"


_clients: dict[int, docker.DockerClient] = {}


def node_client() -> docker.DockerClient:
    from authoring.sandbox.daemon import connect

    if os.getpid() not in _clients:
        _clients[os.getpid()] = connect()
    return _clients[os.getpid()]


def _node_janitor(base_image: str) -> tuple[str, NodeIdentity | None, str]:
    client = node_client()
    identity = NodeIdentity.here(client, base_image) if base_image else None
    return node_label(), identity, janitor(client)


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
