"""Removing runs: at once, in the background (drained before the process exits), or after a killed process."""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import socket
import sys
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docker
from docker.errors import APIError, NotFound
from docker.models.containers import Container

from authoring.retry import RetriesExhausted, RetryPolicy, with_backoff
from authoring.sandbox.containers import force_remove
from authoring.sandbox.network_pool import network_pool

RUN_LABEL = "v3ast.run"
OWNER_LABEL = "v3ast.owner"


def remove_run(containers: Sequence[Container], network: docker.models.networks.Network | None,
               images: Sequence[str] = (), *, keep_network: bool = False) -> None:
    """Remove containers in parallel, then the network (or keep it for a later run, see network_pool) and the run's
    images. Plain threads, not an executor: this also runs from an atexit handler, when concurrent.futures no
    longer accepts work."""
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
        if network is not None and (errors or not keep_network or not network_pool.keep(network)):
            try:
                network.remove()
            except NotFound:
                pass
        for image in images:
            _remove_image(containers[0].client if containers else None, image)


def _remove_image(client: docker.DockerClient | None, image: str) -> None:
    if client is None:
        return
    try:
        client.images.remove(image, force=True, noprune=False)
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

    def submit(self, run_id: str, containers: Sequence[Container], network, images: Sequence[str] = (), *,
               keep_network: bool = False) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="v3ast-teardown", daemon=True)
                self._thread.start()
                atexit.register(self.drain)
        self._queue.put((run_id, list(containers), network, list(images), keep_network))

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
            run_id, containers, network, images, keep_network = self._queue.get()
            try:
                with self._state:
                    self._state.wait_for(lambda: self._starting or self._draining, timeout=self.GRACE_SECONDS)
                    self._state.wait_for(lambda: not self._starting or self._draining, timeout=self.MAX_PAUSE_SECONDS)
                remove_run(containers, network, images, keep_network=keep_network)
            except Exception as error:  # noqa: BLE001 - reported; remove_leftovers covers what is left
                print(f"v3ast: could not remove run {run_id}: {error} (`v3ast doctor --fix` removes leftovers)",
                      file=sys.stderr)
            finally:
                self._queue.task_done()


background_remover = _BackgroundRemover()


def drain_teardowns() -> None:
    """Wait for the background removal of every sandbox closed with wait=False, then remove the networks kept for
    later runs (both also done at exit)."""
    background_remover.drain()
    network_pool.release()


def this_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_is_gone(labels: Mapping[str, str]) -> bool:
    """Whether the process that started a run has ended (only decidable for processes of this host)."""
    host, _, pid = labels.get(OWNER_LABEL, "").rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return OWNER_LABEL not in labels
    return not Path(f"/proc/{pid}").exists()


LISTING_RETRY = RetryPolicy(name="engine listing", attempts=3, base_delay=0, max_delay=0, jitter=False)


def listed(list_them):
    """A listing of the engine's objects; another process removing one while it is listed makes docker-py's
    per-object inspection fail with 404, so the listing is taken again at once (LISTING_RETRY)."""
    try:
        return with_backoff(list_them, LISTING_RETRY, retry_on=(NotFound,))[0]
    except RetriesExhausted as gave_up:
        raise gave_up.last from None


def remove_leftovers(client: docker.DockerClient, run_id: str | None = None) -> int:
    """Remove the containers and networks of one run, or of every run whose process was killed before
    cleaning up; runs of live processes (another batch on the same engine) are left alone."""
    label = f"{RUN_LABEL}={run_id}" if run_id else RUN_LABEL
    containers = listed(lambda: client.containers.list(all=True, filters={"label": label}))
    if run_id is None:
        containers = [c for c in containers if owner_is_gone(c.labels)]
    with ThreadPoolExecutor(max_workers=max(1, len(containers))) as pool:
        list(pool.map(force_remove, containers))
    networks = client.networks.list(filters={"label": label})
    if run_id is None:
        networks = [n for n in networks if owner_is_gone(n.attrs.get("Labels") or {})]
    removed_networks = 0
    for network in networks:
        try:
            network.remove()
        except NotFound:
            pass
        except APIError:  # an engine that still counts an endpoint of a removed container: left for the next sweep
            continue
        removed_networks += 1
    images = listed(lambda: client.images.list(filters={"label": label}))
    if run_id is None:
        images = [i for i in images if owner_is_gone(i.labels or {})]
    for image in images:
        _remove_image(client, image.id)
    return len(containers) + removed_networks + len(images)


