import os
import signal
import time

import pytest

from authoring.sandbox.containers import engine_on_this_host
from authoring.sandbox.session import Sandbox, ServiceSpec
from authoring.sandbox.teardown import RUN_LABEL, remove_leftovers

pytestmark = pytest.mark.docker


def run_objects(client, run_id: str) -> list:
    label = {"label": f"{RUN_LABEL}={run_id}"}
    return client.containers.list(all=True, filters=label) + client.networks.list(filters=label)


def kill_unreaped(child) -> None:
    """SIGKILL a child and wait until it has died without reaping it: until `child.wait()` its pid stays in /proc, so
    the janitor of a batch that another test worker starts meanwhile (it removes the runs of gone processes) leaves
    the child's runs alone while the test looks at them."""
    child.send_signal(signal.SIGKILL)
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)


def test_network_is_internal_and_the_agent_has_no_default_route(box, docker_client):
    network = docker_client.networks.get(box.network.id)
    assert network.attrs["Internal"] is True
    assert "default" not in box.exec("ip route").output
    routes = box.exec("cat /proc/net/route").output.splitlines()[1:]
    assert routes and all(line.split()[1] != "00000000" for line in routes)


def test_an_unknown_host_fails_within_seconds_on_the_internal_network(box):
    """No upstream answers on the internal network: the resolver gives up after its short timeout, not 20 s."""
    started = time.monotonic()
    result = box.exec("getent hosts pypi.org", timeout=30)
    assert result.exit_code != 0
    assert time.monotonic() - started < 8


def test_the_resolvers_own_tcp_listener_refuses_at_once_and_port_53_still_answers(box):
    """A judge asking each listener whether it speaks HTTP is not kept waiting by the engine's resolver."""
    if not engine_on_this_host(box.agent):
        pytest.skip("the rule is set from this host's side of the engine")
    ask = ("import http.client, time\n"
           "rows = [r.split() for r in open('/proc/net/tcp').read().splitlines()[1:]]\n"
           "ports = [int(r[1].split(':')[1], 16) for r in rows if r[3] == '0A' and r[1].startswith('0B00007F')]\n"
           "started = time.monotonic()\n"
           "try:\n"
           "    c = http.client.HTTPConnection('127.0.0.11', ports[0], timeout=5)\n"
           "    c.request('GET', '/'); c.getresponse()\n"
           "except OSError as error:\n"
           "    print(type(error).__name__, round(time.monotonic() - started, 2))\n")
    result = box.exec(f"python3 -c \"{ask}\"")
    name, seconds = result.output.split()
    assert name == "ConnectionRefusedError" and float(seconds) < 1
    tcp_query = box.exec("python3 -c \"import socket; socket.create_connection(('127.0.0.11', 53), timeout=3)\"")
    assert tcp_query.exit_code == 0


def test_agent_container_is_unprivileged_limited_and_gets_only_the_given_env(docker_client, base_image, monkeypatch):
    monkeypatch.setenv("HOST_ONLY_SECRET", "should-not-leak")
    with Sandbox(docker_client, base_image, env={"PROJECT_MODE": "dev"}) as box:
        host_config = docker_client.api.inspect_container(box.agent.id)["HostConfig"]
        attrs = docker_client.api.inspect_container(box.agent.id)
        env = box.exec("env").output
    assert host_config["Privileged"] is False
    assert host_config["CapDrop"] == ["ALL"] and "NET_ADMIN" not in host_config["CapAdd"]
    assert "no-new-privileges" in host_config["SecurityOpt"]
    assert host_config["Memory"] == 1024**3 and host_config["PidsLimit"] == 512
    assert host_config["NanoCpus"] == 10**9
    assert attrs["Mounts"] == [] and not host_config["Binds"]
    assert "PROJECT_MODE=dev" in env and "HOST_ONLY_SECRET" not in env
    assert os.environ["HOME"] not in env.replace("HOME=/root", "")


def test_exec_returns_output_and_exit_code_and_enforces_the_timeout(box):
    result = box.exec("echo out; echo err >&2; exit 3")
    assert (result.exit_code, result.timed_out) == (3, False)
    assert "out" in result.output and "err" in result.output
    started = time.monotonic()
    slow = box.exec("echo begun; sleep 30", timeout=1)
    assert slow.timed_out and slow.exit_code == 124 and "begun" in slow.output
    assert time.monotonic() - started < 5
    assert box.exec("ps -eo args | grep -c '^sleep 30$'").output.strip() == "0"


def test_write_and_read_files(box):
    box.write_file("notes/todo.txt", b"ship it\n", mode=0o600)
    assert box.read_file("/workspace/notes/todo.txt") == b"ship it\n"
    assert box.exec("stat -c %a notes/todo.txt").output.strip() == "600"
    assert box.read_file("/workspace/absent.txt") is None


def test_unknown_service_kind_or_host_names_what_is_available(docker_client, base_image, box):
    with pytest.raises(ValueError, match="available: receiver"):
        Sandbox(docker_client, base_image, [ServiceSpec("ftp", "ftp.internal")])
    with pytest.raises(ValueError, match="available: api.internal, collector.internal"):
        box.service_events("nowhere.internal")


def test_cleanup_leaves_nothing_when_the_body_raises(docker_client, base_image):
    box = Sandbox(docker_client, base_image, [ServiceSpec("receiver", "collector.internal")])
    with pytest.raises(RuntimeError, match="boom"):
        with box:
            assert run_objects(docker_client, box.run_id)
            raise RuntimeError("boom")
    assert run_objects(docker_client, box.run_id) == []
    box.close()


def test_cleanup_leaves_nothing_on_keyboard_interrupt(docker_client, base_image):
    box = Sandbox(docker_client, base_image, [ServiceSpec("api", "api.internal")])
    with pytest.raises(KeyboardInterrupt):
        with box:
            raise KeyboardInterrupt
    assert run_objects(docker_client, box.run_id) == []


def test_remove_leftovers_removes_a_run_that_was_never_closed(docker_client, base_image):
    box = Sandbox(docker_client, base_image, [ServiceSpec("receiver", "collector.internal")]).__enter__()
    assert len(run_objects(docker_client, box.run_id)) == 3
    assert remove_leftovers(docker_client, run_id=box.run_id) == 3
    assert run_objects(docker_client, box.run_id) == []


KILLED_RUN = """
import sys
from authoring.sandbox.daemon import connect
from authoring.sandbox.session import Sandbox, ServiceSpec
box = Sandbox(connect(), sys.argv[1], [ServiceSpec("receiver", "collector.internal")]).__enter__()
print(box.run_id, flush=True)
sys.stdin.read()
"""


def test_leftovers_of_a_killed_process_are_removed_but_live_runs_are_not(docker_client, base_image):
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", KILLED_RUN, base_image], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    killed_run = child.stdout.readline().strip()
    kill_unreaped(child)
    assert len(run_objects(docker_client, killed_run)) == 3
    with Sandbox(docker_client, base_image) as live:
        child.wait()
        assert remove_leftovers(docker_client) >= 3
        assert run_objects(docker_client, killed_run) == []
        assert len(run_objects(docker_client, live.run_id)) == 2
        assert live.exec("true").exit_code == 0
