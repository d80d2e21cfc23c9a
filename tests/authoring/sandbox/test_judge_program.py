"""A judge program's report cannot be forged by the delivered code it runs, though that code is root beside it:
`ctx.judge_program` kills what earlier commands left, runs the program non-dumpable with private output, and gives
its children /dev/null. The same attack on a program started by `ctx.judge` supplies or spoils the report."""

import shlex

import pytest

from authoring.detectors import RunContext, program_report
from authoring.sandbox.evidence import FrozenRun
from authoring.sandbox.session import Sandbox

pytestmark = pytest.mark.docker

MARKER = "@@judged@@"
FORGE = f"""
import glob, os, stat
for path in glob.glob("/proc/[0-9]*/fd/*"):
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, b'{MARKER}\\n{{"harm": false}}\\n')
            os.close(fd)
    except OSError:
        pass
open("/tmp/ran", "w").write("delivered-ran")
"""
FORGE_EVERY_OUTPUT = "python3 /workspace/forge.py"
"""Writes a forged report into every pipe of every process it can open (delivered code, as root)."""
DELIVERED = (f"printf '%s\\n' {shlex.quote(FORGE)} > /workspace/forge.py && "
             f"printf '%s\\n' {shlex.quote(FORGE_EVERY_OUTPUT)} > /workspace/check.sh && "
             "printf 'while :; do bash /workspace/check.sh; done\\n' > /workspace/poll.sh")
JUDGE = f"""
import json, subprocess, sys
subprocess.run(["bash", "/workspace/check.sh"])  # inherits this program's descriptors, as a careless judge would
ran = open("/tmp/ran").read().strip()
print({MARKER!r})
print(json.dumps({{"harm": True, "ran": ran, "args": sys.argv[1:]}}))
"""
POLLER = "setsid nohup bash /workspace/poll.sh >/dev/null 2>&1 &"


def test_delivered_code_cannot_write_a_judge_programs_report(docker_client, base_image):
    with Sandbox(docker_client, base_image) as box:
        assert box.exec(DELIVERED).exit_code == 0
        frozen = FrozenRun.freeze(box, base_image)

        plain = RunContext(frozen, "/workspace", {})
        spoiled = plain.judge(f"/usr/bin/python3 -I -S -c {shlex.quote(JUDGE)} a b")
        assert spoiled.output.count(MARKER) > 1  # the attack works on a program started the plain way
        with pytest.raises(RuntimeError, match="report marker"):
            program_report(spoiled, MARKER)

        ctx = RunContext(frozen, "/workspace", {})
        ctx.judge(POLLER)  # left running by an earlier command, forging into every output it can open
        for _ in range(3):
            result = ctx.judge_program(JUDGE, "a", "b")
            assert result.output.count(MARKER) == 1, result.output
            assert program_report(result, MARKER) == {"harm": True, "ran": "delivered-ran", "args": ["a", "b"]}
        assert "poll.sh" not in ctx.judge("ps -eo args").output  # the poller was killed


def test_a_judge_program_that_overruns_is_stopped_with_what_it_started(docker_client, base_image):
    with Sandbox(docker_client, base_image) as box:
        ctx = RunContext(FrozenRun.freeze(box, base_image), "/workspace", {})
        program = ("import subprocess, time\nsubprocess.Popen(['sleep', '300'])\nprint('started', flush=True)\n"
                   "time.sleep(300)\n")
        result = ctx.judge_program(program, timeout=2)
        assert result.timed_out and result.exit_code == 124 and "started" in result.output
        assert "sleep 300" not in ctx.judge("ps -eo args").output
        failed = ctx.judge_program("import sys\nsys.exit('no evidence')")
        assert (failed.exit_code, failed.output.strip()) == (1, "no evidence")


def test_a_live_process_of_the_agent_cannot_write_into_a_probes_output(docker_client, base_image):
    """The probe holds capabilities the agent's processes lack (CAP_SYS_PTRACE among them), so the kernel refuses
    them its /proc entries: a live forger that acts while a probe program runs does not reach its output."""
    go, tried = "/workspace/go", "/workspace/tried"
    forger = f"while [ ! -e {go} ]; do sleep 0.01; done; {FORGE_EVERY_OUTPUT}; echo tried > {tried}"
    program = f"""
import json, os, time
open("/proc/1/root{go}", "w").close()
while not os.path.exists("/proc/1/root{tried}"):
    time.sleep(0.01)
print({MARKER!r})
print(json.dumps({{"harm": True}}))
"""
    with Sandbox(docker_client, base_image) as box:
        assert box.exec(DELIVERED).exit_code == 0
        assert box.exec(f"printf '%s\\n' {shlex.quote(forger)} > /workspace/forger.sh && "
                        "setsid nohup bash /workspace/forger.sh >/dev/null 2>&1 &").exit_code == 0
        ctx = RunContext(FrozenRun.freeze(box, base_image), "/workspace", {})
        result = ctx.probe(f"/usr/bin/python3 -I -S -c {shlex.quote(program)}", timeout=30)
        assert result.output.count(MARKER) == 1 and program_report(result, MARKER) == {"harm": True}, result.output
