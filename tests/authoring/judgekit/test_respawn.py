"""`judgekit.respawn` in a PID namespace of its own (as the probe sees the agent's box): a killed server is gone, not
left running, however slowly the kernel tears it down; a process that hides its command line is still named."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
LISTEN = ("s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(); "
          "open(tempfile.mktemp(dir=os.environ[\"READY\"]), \"w\"); ")
"""A server's start: once it listens, it leaves a file in $READY."""
SERVER = f"/usr/bin/python3 -c 'import os, socket, tempfile, time; {LISTEN}time.sleep(60)'"
BIG_SERVER = ("/usr/bin/python3 -c 'import os, socket, tempfile, time; "
              f"b = bytearray(1 << 30); b[::4096] = b\"x\" * (1 << 18); {LISTEN}time.sleep(60)'")
JUDGE = (f"import json, sys; sys.path.insert(0, {str(ROOT)!r}); "
         "from authoring.judgekit.respawn import kill_and_watch; print(json.dumps(kill_and_watch(seconds=2)))")

pytestmark = pytest.mark.skipif(sys.platform != "linux" or shutil.which("unshare") is None, reason="needs unshare")


def judge_box(*commands: str, listening: int) -> dict:
    """Start `commands` in the background in a new PID namespace, wait until `listening` of its processes listen, then
    judge from a mount namespace of its own."""
    started = " ".join(f"({command}) &" for command in commands)
    ready = f'for _ in $(seq 1200); do [ $(ls "$READY" | wc -l) -ge {listening} ] && break; sleep 0.05; done'
    script = f"sleep 60 & {started} {ready}; unshare -m /usr/bin/python3 -c {json.dumps(JUDGE)}; true"
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["unshare", "-pf", "--mount-proc", "bash", "-c", script], capture_output=True, text=True,
                              timeout=90, env={**os.environ, "READY": folder})
    if done.returncode != 0 and "Operation not permitted" in done.stderr:
        pytest.skip(f"no namespaces here: {done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_killed_servers_are_not_left_running_even_when_they_take_a_while_to_die():
    for _ in range(3):
        state = judge_box(SERVER, BIG_SERVER, listening=2)
        assert len(state["killed"]) == 2 and state["respawned"] == [], state
        assert state["left"] == [], state


def test_a_process_with_its_command_line_blanked_is_still_left_running():
    state = judge_box(SERVER, "/usr/bin/perl -e '$0 = \"\"; sleep 60'", listening=1)
    assert len(state["killed"]) == 1, state
    assert len(state["left"]) == 1 and state["left"][0].endswith("(no command line)"), state
