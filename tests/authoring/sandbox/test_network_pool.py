"""Run networks kept for the next run of the process: reused only when nothing is attached, removed at exit."""

import subprocess
import sys
import threading
import time

import pytest
from docker.errors import APIError, NotFound

from authoring.sandbox.network_pool import POOLS_FULL, NetworkPool, make_internal_network, network_pool
from authoring.sandbox.session import Sandbox, ServiceSpec
from authoring.sandbox.teardown import RUN_LABEL, drain_teardowns, remove_leftovers
from tests.authoring.sandbox.test_session import kill_unreaped, run_objects

pytestmark = pytest.mark.docker


def network_exists(client, network_id: str) -> bool:
    try:
        client.networks.get(network_id)
        return True
    except NotFound:
        return False


def test_the_next_run_gets_the_kept_network_with_nothing_of_the_last_run_on_it(docker_client, base_image):
    services = [ServiceSpec("receiver", "collector.internal")]
    with Sandbox(docker_client, base_image, services, keep_network=True) as first:
        assert first.exec("getent hosts collector.internal").exit_code == 0
    with Sandbox(docker_client, base_image, keep_network=True) as second:
        assert second.network.id == first.network.id
        network = docker_client.networks.get(second.network.id)
        assert network.attrs["Internal"] is True
        assert set(network.attrs["Containers"]) == {second.agent.id}
        assert "default" not in second.exec("ip route").output
        # a name the engine's DNS does not know is forwarded to upstream servers an internal network cannot reach:
        # 20 s of retries with resolv.conf's defaults, 2 s with one 1-second try per query
        assert second.exec("RES_OPTIONS='timeout:1 attempts:1' getent hosts collector.internal").exit_code != 0
    assert [c for c in run_objects(docker_client, first.run_id) if c.id != first.network.id] == []
    assert run_objects(docker_client, second.run_id) == []


def test_a_network_with_a_container_still_on_it_is_not_kept(docker_client, base_image):
    pool = NetworkPool()
    network = pool.take_or_make(docker_client, "lan-pool-test", {RUN_LABEL: "pool-test"})
    stray = docker_client.containers.run(base_image, ["sleep", "infinity"], network=network.name, detach=True)
    try:
        assert pool.keep(network) is False
    finally:
        stray.remove(force=True)
    try:
        assert pool.keep(network) is True
        assert pool.take_or_make(docker_client, "lan-other", {RUN_LABEL: "pool-test"}).id == network.id
        assert pool.keep(network) is True
        pool.close()
        assert not network_exists(docker_client, network.id)
        made_after_close = pool.take_or_make(docker_client, "lan-after-close", {RUN_LABEL: "pool-test"})
        assert pool.keep(made_after_close) is False
        made_after_close.remove()
    finally:
        remove_leftovers(docker_client, run_id="pool-test")


def test_a_network_made_outside_the_pool_is_never_kept(docker_client, base_image):
    with Sandbox(docker_client, base_image) as box:
        pass
    assert NetworkPool().keep(box.network) is False
    assert not network_exists(docker_client, box.network.id)


TWO_RUNS = """
import sys
from authoring.sandbox.daemon import connect
from authoring.sandbox.session import Sandbox
for _ in range(2):
    with Sandbox(connect(), sys.argv[1], keep_network=True, background_teardown=True) as box:
        print(box.network.id, flush=True)
if sys.argv[2] == "interrupt":
    raise KeyboardInterrupt
"""


@pytest.mark.parametrize("ending", ["normal", "interrupt"])
def test_a_process_removes_its_kept_networks_when_it_exits(docker_client, base_image, ending):
    child = subprocess.run([sys.executable, "-c", TWO_RUNS, base_image, ending], capture_output=True, text=True,
                           timeout=120)
    networks = child.stdout.split()
    assert len(networks) == 2, child.stderr
    assert not any(network_exists(docker_client, network) for network in networks)
    assert "could not remove" not in child.stderr


KEPT_THEN_KILLED = """
import sys
from authoring.sandbox.daemon import connect
from authoring.sandbox.session import Sandbox
with Sandbox(connect(), sys.argv[1], keep_network=True) as box:
    pass
print(box.network.id, flush=True)
sys.stdin.read()
"""


def test_a_kept_network_of_a_killed_process_is_a_leftover(docker_client, base_image):
    child = subprocess.Popen([sys.executable, "-c", KEPT_THEN_KILLED, base_image], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    network = child.stdout.readline().strip()
    kill_unreaped(child)
    assert network_exists(docker_client, network)
    child.wait()
    remove_leftovers(docker_client)
    assert not network_exists(docker_client, network)


def test_draining_the_teardowns_removes_the_kept_networks_and_later_runs_keep_theirs(docker_client, base_image):
    with Sandbox(docker_client, base_image, keep_network=True, background_teardown=True) as first:
        pass
    drain_teardowns()
    assert not network_exists(docker_client, first.network.id)
    with Sandbox(docker_client, base_image, keep_network=True) as second:
        assert second.network.id != first.network.id
    with Sandbox(docker_client, base_image, keep_network=True) as third:
        assert third.network.id == second.network.id
    drain_teardowns()
    assert not network_exists(docker_client, third.network.id)


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_a_run_that_raises_removes_its_network_before_the_with_ends(docker_client, base_image, error):
    box = Sandbox(docker_client, base_image, keep_network=True, background_teardown=True)
    with pytest.raises(type(error)):
        with box:
            raise error
    assert not network_exists(docker_client, box.network.id)


def test_a_run_waits_for_an_address_pool_while_every_pool_of_the_engine_is_taken(docker_client, monkeypatch):
    network_pool.release()
    found_full = threading.Event()
    release = network_pool.release
    monkeypatch.setattr(network_pool, "release", lambda: (found_full.set(), release()))  # the waiter's retry
    labels = {RUN_LABEL: "pools-full-test"}
    fillers = []
    try:
        for number in range(64):
            try:
                fillers.append(docker_client.networks.create(f"lan-pools-full-{number}", labels=labels))
            except APIError as error:
                assert POOLS_FULL in str(error.explanation)
                break
        else:
            pytest.skip("the engine has more than 64 address pools free")
        made = []
        waiting = threading.Thread(target=lambda: made.append(
            make_internal_network(docker_client, "lan-pools-full-waiter", labels)))
        waiting.start()
        while waiting.is_alive() and not found_full.wait(0.1):
            pass  # until the waiter found every pool taken (or got one another test worker gave back)
        deadline = time.monotonic() + 60
        while fillers and waiting.is_alive() and time.monotonic() < deadline:
            fillers.pop().remove()  # one more while a run elsewhere (another test worker) took the freed pool
            waiting.join(5)
        waiting.join(max(0.0, deadline - time.monotonic()))
        assert made and made[0].attrs["Internal"] is True
    finally:
        remove_leftovers(docker_client, run_id="pools-full-test")
