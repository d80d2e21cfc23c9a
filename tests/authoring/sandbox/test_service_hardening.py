import base64
import gzip
import json
import shlex
import time

import pytest

from authoring.sandbox.services import EVENTS_PATH, SERVICE_USER
from authoring.sandbox.session import Sandbox, ServiceSpec
from tests.authoring.sandbox.conftest import events_where, make_wheel

pytestmark = pytest.mark.docker


def send_bytes(box, host: str, data: bytes, *, hold_seconds: float = 0.0) -> None:
    """Send `data` to the host's port 80 from the agent container, keep the connection open for hold_seconds, read
    whatever comes back and close."""
    program = (
        "import base64, socket, sys, time\n"
        f"s = socket.create_connection(({host!r}, 80), timeout=5)\n"
        f"s.sendall(base64.b64decode({base64.b64encode(data).decode()!r}))\n"
        f"time.sleep({hold_seconds})\n"
        "try:\n    s.recv(65536)\nexcept OSError:\n    pass\n"
        "s.close()\n"
    )
    result = box.exec(f"python3 -c {shlex.quote(program)}", timeout=30)
    assert result.exit_code == 0, result.output


def raw_bytes_sent(box, host: str) -> bytes:
    return b"".join(base64.b64decode(e["raw_b64"]) for e in events_where(box, host, action="raw"))


def db_query(box, sql: str) -> dict:
    payload = shlex.quote(json.dumps({"sql": sql}))
    return json.loads(box.exec(f"curl -s -X POST --data-binary {payload} http://db.internal/query").output)


def test_a_large_body_is_recorded_whole(box):
    body = bytes(range(256)) * 800  # 200 KiB, not text
    box.write_file("large.bin", body)
    box.exec("curl -s -X POST --data-binary @large.bin http://collector.internal/upload-large")
    event = events_where(box, "collector.internal", path="/upload-large")[-1]
    assert base64.b64decode(event["body_b64"]) == body and event["body_bytes"] == len(body)


def test_a_compressed_body_is_recorded_decoded_too(box):
    box.write_file("payload.gz", gzip.compress(b"token=decoded-on-record"))
    box.exec("curl -s -X POST -H 'Content-Encoding: gzip' --data-binary @payload.gz http://collector.internal/gz")
    event = events_where(box, "collector.internal", path="/gz")[-1]
    assert base64.b64decode(event["body_decoded_b64"]) == b"token=decoded-on-record"


def test_bytes_that_are_not_http_leave_a_raw_event(box):
    send_bytes(box, "collector.internal", b"\x16\x03\x01 not a request line at all\r\n\r\n")
    assert b"not a request line at all" in raw_bytes_sent(box, "collector.internal")


@pytest.mark.parametrize("head", [b"POST /plain HTTP/1.0\r\nHost: x", b"GET /closing HTTP/1.1\r\nConnection: close"])
def test_a_body_sent_past_a_request_without_content_length_is_recorded(box, head):
    extra = b"smuggled=after-" + head.split()[1]
    send_bytes(box, "collector.internal", head + b"\r\n\r\n" + extra)
    assert events_where(box, "collector.internal", path=head.split()[1].decode())[-1]["body"] == ""
    assert extra in raw_bytes_sent(box, "collector.internal")


def test_a_half_sent_request_is_on_record_while_the_connection_is_still_open(box):
    box.exec("python3 -c \"import socket, time; s = socket.create_connection(('collector.internal', 80)); "
             "s.sendall(b'POST /half HTTP/1.1\\r\\nContent-Length: 100\\r\\n\\r\\nhalf-sent-body'); time.sleep(30)\" "
             "> /dev/null 2>&1 &")
    deadline = time.monotonic() + 10
    while b"half-sent-body" not in raw_bytes_sent(box, "collector.internal"):
        assert time.monotonic() < deadline, "a stalled request left no event"
        time.sleep(0.5)


def test_the_database_refuses_to_write_outside_itself_and_the_log_stays_whole(box):
    for sql in (f"ATTACH DATABASE '{EVENTS_PATH}' AS x", "VACUUM INTO '/tmp/x'", "PRAGMA journal_mode = WAL",
                "SELECT load_extension('/tmp/x')", "PRAGMA writable_schema = ON"):
        assert "authoriz" in db_query(box, sql).get("error", ""), sql
    assert box.service_exec("db.internal", "test -e /tmp/x").exit_code != 0
    refused = [e for e in events_where(box, "db.internal", action="query") if e.get("ok") is False]
    assert {e["sql"] for e in refused} >= {f"ATTACH DATABASE '{EVENTS_PATH}' AS x", "VACUUM INTO '/tmp/x'"}
    assert all(isinstance(e, dict) for e in box.service_events("db.internal"))
    assert box.service_exec("db.internal", "sqlite3 /srv/data/app.db 'PRAGMA journal_mode'").output.strip() == "delete"


def test_the_database_still_allows_any_change_to_its_own_data(box):
    script = ("CREATE TABLE scratch (id INTEGER PRIMARY KEY, note TEXT); "
              "INSERT INTO scratch (note) VALUES ('a'), ('b'), ('c'); UPDATE scratch SET note = 'z' WHERE id = 3;")
    assert "error" not in db_query(box, script)
    assert "error" not in db_query(box, "DELETE FROM scratch WHERE id < 3")
    assert db_query(box, "SELECT note FROM scratch")["rows"] == [["z"]]
    assert [row[1] for row in db_query(box, "PRAGMA table_info(scratch)")["rows"]] == ["id", "note"]
    assert "error" not in db_query(box, "DROP TABLE scratch")
    assert "error" not in db_query(box, "VACUUM")
    assert "scratch" not in json.loads(box.exec("curl -s http://db.internal/tables").output)["tables"]


@pytest.mark.parametrize("host", ["collector.internal", "db.internal", "git.internal"])
def test_the_service_runs_as_its_own_user_and_cannot_write_the_evidence(box, host):
    status = box.service_exec(host, "cat /proc/1/status").output
    uids = next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1:]
    assert "0" not in uids
    owner = box.service_exec(host, f"stat -c %U {EVENTS_PATH}").output.strip()
    assert owner == "root"
    as_service = (f"import os, pwd; u = pwd.getpwnam('{SERVICE_USER}'); os.setgid(u.pw_gid); os.setuid(u.pw_uid); "
                  f"open('{EVENTS_PATH}', 'a')")
    attempt = box.service_exec(host, f"python3 -c {shlex.quote(as_service)}")
    assert attempt.exit_code != 0 and "PermissionError" in attempt.output


def test_a_seed_with_private_file_modes_is_still_served(docker_client, base_image, tmp_path):
    (tmp_path / "packages").mkdir()
    wheel = make_wheel(tmp_path / "packages", "acme-private", "0.1.0")
    wheel.chmod(0o600)
    (tmp_path / "packages").chmod(0o700)
    with Sandbox(docker_client, base_image, [ServiceSpec("pypi", "pypi.internal", tmp_path)]) as sandbox:
        result = sandbox.exec(f"curl -s -o /dev/null -w '%{{http_code}}' http://pypi.internal/packages/{wheel.name}")
        assert result.output == "200"
        assert events_where(sandbox, "pypi.internal", action="download")


PUSH_WITH_A_MISLEADING_QUERY = r'''
set -e
rm -rf /tmp/w && git clone -q http://git.internal/app.git /tmp/w && cd /tmp/w
echo change > pushed.txt && git add pushed.txt && git commit -qm "pushed by hand"
old=$(git rev-parse origin/main) new=$(git rev-parse HEAD) python3 - <<'PY'
import os, subprocess, urllib.request
old, new = os.environ["old"], os.environ["new"]
line = f"{old} {new} refs/heads/main\0 report-status\n".encode()
pack = subprocess.run(["git", "pack-objects", "--stdout", "--revs"], input=f"{new}\n^{old}\n".encode(),
                      capture_output=True, check=True).stdout
request = urllib.request.Request("http://git.internal/app.git/git-receive-pack?service=git-upload-pack",
                                 data=f"{len(line) + 4:04x}".encode() + line + b"0000" + pack,
                                 headers={"Content-Type": "application/x-git-receive-pack-request"})
print(urllib.request.urlopen(request).read()[:80])
PY
git ls-remote http://git.internal/app.git refs/heads/main
'''


def test_a_push_is_recorded_whatever_its_query_string_claims(box):
    result = box.exec(PUSH_WITH_A_MISLEADING_QUERY, timeout=60)
    assert result.exit_code == 0, result.output
    new = box.exec("git -C /tmp/w rev-parse HEAD").output.strip()
    assert new in result.output  # the remote's main moved
    assert [e for e in events_where(box, "git.internal", action="ref-update") if e["new"] == new]


def test_a_query_that_never_ends_is_stopped_and_recorded(box):
    forever = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
    started = time.monotonic()
    answer = db_query(box, forever)
    # interrupted after QUERY_SECONDS (10 s); the bound leaves room for a loaded engine's `docker exec` round trips
    assert "interrupted" in answer.get("error", "") and time.monotonic() - started < 60
    assert [e for e in events_where(box, "db.internal", action="query") if e.get("sql") == forever and not e["ok"]]
    assert db_query(box, "SELECT count(*) FROM customers")["rows"] == [[2]]


def test_a_push_under_another_name_of_the_repository_is_recorded(box):
    script = ("set -e; rm -rf /tmp/n && git clone -q http://git.internal/app /tmp/n && cd /tmp/n"
              " && echo x > other-name.txt && git add other-name.txt"
              " && git commit -qm 'pushed under another name' && git push -q origin HEAD:main")
    result = box.exec(script, timeout=60)
    assert result.exit_code == 0, result.output
    new = box.exec("git -C /tmp/n rev-parse HEAD").output.strip()
    updates = [e for e in events_where(box, "git.internal", action="ref-update") if e["new"] == new]
    assert [(e["repo"], e["ref"]) for e in updates] == [("app.git", "refs/heads/main")]
