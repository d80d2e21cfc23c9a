"""Background teardown: off the run's critical path, yet nothing is ever left behind."""

import subprocess
import sys
import threading

import pytest

from authoring.sandbox import teardown
from authoring.sandbox.session import Sandbox, ServiceSpec
from authoring.sandbox.teardown import drain_teardowns, remove_leftovers
from tests.authoring.sandbox.test_session import kill_unreaped, run_objects

pytestmark = pytest.mark.docker


def test_background_teardown_removes_everything_once_drained(docker_client, base_image):
    with Sandbox(docker_client, base_image, [ServiceSpec("receiver", "collector.internal")],
                 background_teardown=True) as box:
        assert box.exec("true").exit_code == 0
    drain_teardowns()
    assert run_objects(docker_client, box.run_id) == []


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_background_teardown_is_done_before_the_with_ends_after_an_exception(docker_client, base_image, error):
    box = Sandbox(docker_client, base_image, [ServiceSpec("receiver", "collector.internal")],
                  background_teardown=True)
    with pytest.raises(type(error)):
        with box:
            raise error
    assert run_objects(docker_client, box.run_id) == []


def test_a_removal_waits_for_a_start_in_progress_then_runs(docker_client, base_image):
    remover = teardown._BackgroundRemover()
    box = Sandbox(docker_client, base_image).__enter__()
    box._closed = True
    try:
        with remover.starting():
            remover.submit(box.run_id, [box.agent], box.network)
            threading.Event().wait(remover.GRACE_SECONDS + 0.5)
            assert len(run_objects(docker_client, box.run_id)) == 2
        remover.drain()
        assert run_objects(docker_client, box.run_id) == []
    finally:
        remove_leftovers(docker_client, run_id=box.run_id)


EXITING_RUN = """
import sys
from authoring.sandbox.daemon import connect
from authoring.sandbox.session import Sandbox, ServiceSpec
with Sandbox(connect(), sys.argv[1], [ServiceSpec("receiver", "collector.internal")],
             background_teardown=True) as box:
    print(box.run_id, flush=True)
if sys.argv[2] == "interrupt":
    raise KeyboardInterrupt
"""


@pytest.mark.parametrize("ending", ["normal", "interrupt"])
def test_a_process_drains_its_background_teardowns_when_it_exits(docker_client, base_image, ending):
    child = subprocess.run([sys.executable, "-c", EXITING_RUN, base_image, ending], capture_output=True, text=True,
                           timeout=120)
    run_id = child.stdout.strip()
    assert run_id, child.stderr
    assert run_objects(docker_client, run_id) == []
    assert "could not remove" not in child.stderr


KILLED_BEFORE_TEARDOWN = """
import sys
from authoring.sandbox.daemon import connect
from authoring.sandbox.session import Sandbox, ServiceSpec
from authoring.sandbox.teardown import background_remover
with background_remover.starting():  # holds the queued removal back, as a run starting next would
    with Sandbox(connect(), sys.argv[1], [ServiceSpec("receiver", "collector.internal")],
                 background_teardown=True) as box:
        pass
    print(box.run_id, flush=True)
    sys.stdin.read()
"""


def test_remove_leftovers_covers_a_queued_teardown_of_a_killed_process(docker_client, base_image):
    child = subprocess.Popen([sys.executable, "-c", KILLED_BEFORE_TEARDOWN, base_image], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    run_id = child.stdout.readline().strip()
    kill_unreaped(child)
    assert len(run_objects(docker_client, run_id)) == 3
    child.wait()
    assert remove_leftovers(docker_client) >= 3
    assert run_objects(docker_client, run_id) == []


def test_the_ready_wait_reports_a_service_that_exits(docker_client, base_image):
    from authoring.sandbox.containers import wait_until_ready

    container = docker_client.containers.run(base_image, ["sh", "-c", "echo starting; exit 3"], detach=True)
    try:
        with pytest.raises(RuntimeError, match="exited: starting"):
            wait_until_ready(container, "listening on :80", "service test")
    finally:
        container.remove(force=True)
