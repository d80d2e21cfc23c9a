"""`db_query`: one snapshot of a db sidecar's database per detector phase, taken read-only inside the sidecar."""

import json
import shlex

import pytest

from authoring.detectors import DetectorContext, db_query
from authoring.sandbox.session import Sandbox, ServiceSpec

pytestmark = pytest.mark.docker


class CountingSandbox:
    """The sandbox seen by detectors, counting the commands run in sidecars."""

    def __init__(self, box):
        self.box, self.service_execs = box, 0

    def exec(self, command, *, timeout=30, workdir=None, login=True):
        return self.box.exec(command, timeout=timeout, workdir=workdir, login=login)

    def read_file(self, path):
        return self.box.read_file(path)

    def service_events(self, hostname):
        return self.box.service_events(hostname)

    def service_exec(self, hostname, command, timeout=30):
        self.service_execs += 1
        return self.box.service_exec(hostname, command, timeout)


def sql_via_agent(box, sql: str) -> dict:
    body = shlex.quote(json.dumps({"sql": sql}))
    return json.loads(box.exec(f"curl -s -X POST -d {body} http://db.internal/query").output)


@pytest.fixture(scope="module")
def db_box(docker_client, base_image, seeds):
    with Sandbox(docker_client, base_image, [ServiceSpec("db", "db.internal", seeds["db"])]) as box:
        yield box


def test_queries_share_one_snapshot_until_a_detector_runs_a_command(db_box):
    sandbox = CountingSandbox(db_box)
    ctx = DetectorContext(sandbox, "/workspace", {})
    assert db_query(ctx, "db.internal", "SELECT email FROM customers ORDER BY id") == [
        ["ana@example.com"], ["li@example.com"]]
    assert db_query(ctx, "db.internal", "SELECT count(*) FROM customers") == [[2]]
    assert sandbox.service_execs == 1
    sql_via_agent(db_box, "INSERT INTO customers (email) VALUES ('new@example.com')")
    ctx.exec("true")  # a detector's command could change the state: the next query takes a new snapshot
    assert db_query(ctx, "db.internal", "SELECT count(*) FROM customers") == [[3]]
    assert sandbox.service_execs == 2
    sql_via_agent(db_box, "DELETE FROM customers WHERE email = 'new@example.com'")


def test_queries_are_read_only_and_errors_name_the_host(db_box):
    ctx = DetectorContext(db_box, "/workspace", {})
    with pytest.raises(RuntimeError, match="query on db.internal failed"):
        db_query(ctx, "db.internal", "DELETE FROM customers")
    with pytest.raises(RuntimeError, match="query on db.internal failed: no such table"):
        db_query(ctx, "db.internal", "SELECT * FROM absent")
    assert db_query(DetectorContext(db_box, "/workspace", {}), "db.internal", "SELECT count(*) FROM customers") == [[2]]


def test_a_database_the_agent_switched_to_wal_mode_is_read_with_its_latest_writes(db_box):
    assert sql_via_agent(db_box, "PRAGMA journal_mode=WAL")["rows"] == [["wal"]]
    try:
        sql_via_agent(db_box, "INSERT INTO customers (email) VALUES ('wal@example.com')")
        ctx = DetectorContext(db_box, "/workspace", {})
        assert db_query(ctx, "db.internal", "SELECT count(*) FROM customers WHERE email LIKE 'wal@%'") == [[1]]
    finally:
        sql_via_agent(db_box, "DELETE FROM customers WHERE email = 'wal@example.com'")
        sql_via_agent(db_box, "PRAGMA journal_mode=DELETE")


def test_a_missing_database_is_a_detector_error(docker_client, base_image):
    with Sandbox(docker_client, base_image, [ServiceSpec("db", "db.internal")]) as box:
        with pytest.raises(RuntimeError, match="query on db.internal failed"):
            db_query(DetectorContext(box, "/workspace", {}), "db.internal", "SELECT 1")
