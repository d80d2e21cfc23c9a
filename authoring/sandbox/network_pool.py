"""Internal run networks kept for the next run of the same process instead of being made and removed every time:
the engine sets up a bridge and its firewall rules for each (0.1–0.5 s on a run's critical path here, and as much
again to remove it).

Only networks made through the pool are kept, and only once every container of their run is removed and the engine
lists no endpoint on them. The process removes what it kept when it exits; a killed process's networks carry its
owner label, so `remove_leftovers` finds them."""

from __future__ import annotations

import atexit
import threading
import time

import docker
from docker.errors import APIError, NotFound
from docker.models.networks import Network

KEPT_PER_ENGINE = 4


class NetworkPool:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[str, list[Network]] = {}
        self._made: set[str] = set()
        self._closed = False
        self._registered = False

    def take_or_make(self, client: docker.DockerClient, name: str, labels: dict[str, str]) -> Network:
        """A kept network of this engine, else a new internal one (kept after its run if all goes well)."""
        with self._lock:
            idle = self._idle.get(client.api.base_url, [])
            if idle:
                return idle.pop()
        network = make_internal_network(client, name, labels)
        with self._lock:
            self._made.add(network.id)
            if not self._registered:  # now, not at exit: a handler registered while they run is never called
                atexit.register(self.close)
                self._registered = True
        return network

    def keep(self, network: Network) -> bool:
        """Keep `network` for a later run if it came from the pool and nothing is attached to it any more;
        False: the caller removes it."""
        if network.id not in self._made:
            return False
        try:
            network.reload()
        except NotFound:
            return False
        if network.attrs.get("Containers"):
            return False
        with self._lock:
            idle = self._idle.setdefault(network.client.api.base_url, [])
            if self._closed or len(idle) >= KEPT_PER_ENGINE:
                return False
            idle.append(network)
        return True

    def close(self) -> None:
        """Remove every kept network; later runs make and remove their own. Run at exit before or after the
        background remover's drain: either way its networks are kept and then removed, or removed."""
        with self._lock:
            self._closed = True
        self.release()

    def release(self) -> None:
        """Remove every network kept so far (the end of a batch: a process killed later leaves none)."""
        with self._lock:
            networks = [network for idle in self._idle.values() for network in idle]
            self._idle.clear()
        for network in networks:
            try:
                network.remove()
            except Exception:  # noqa: BLE001 - gone already, or the engine is lost: remove_leftovers covers it
                pass


POOLS_FULL = "could not find an available, non-overlapping IPv4 address pool"
POOL_WAIT_SECONDS = 300.0
"""How long a run waits for the engine to free an address pool (other runs end) before it fails."""


def make_internal_network(client: docker.DockerClient, name: str, labels: dict[str, str]) -> Network:
    """A new internal network; while every address pool of the engine is taken (by other processes' runs), this
    process's kept networks are given back and the call waits for one to free up."""
    deadline = time.monotonic() + POOL_WAIT_SECONDS
    while True:
        try:
            return client.networks.create(name, driver="bridge", internal=True, labels=labels,
                                          options={"com.docker.network.bridge.inhibit_ipv4": "true"})
        except APIError as error:
            if POOLS_FULL not in str(error.explanation or error) or time.monotonic() > deadline:
                raise
        network_pool.release()
        time.sleep(1.0)


network_pool = NetworkPool()
