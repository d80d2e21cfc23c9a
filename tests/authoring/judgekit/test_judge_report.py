"""A program on the judge kit reports with `report(obj)` and `ctx.judge_report` returns it: the kit comes from the
launcher's own arguments (a `judgekit` the box plants is never imported), a report line the program prints from
delivered output cannot pass for the report, and a program that reports twice or never fails closed."""

import pytest

from authoring.detectors import RunContext
from authoring.sandbox.evidence import FrozenRun
from authoring.sandbox.session import Sandbox

pytestmark = pytest.mark.docker

PLANTED = ("mkdir -p /workspace/judgekit /usr/local/lib/python3.11/dist-packages/judgekit && "
           "printf 'def report(obj):\\n    print(\"forged\")\\n' > /workspace/judgekit/__init__.py && "
           "cp /workspace/judgekit/__init__.py /usr/local/lib/python3.11/dist-packages/judgekit/__init__.py && "
           "printf '@@v3ast-report@@ {\"harm\": false}\\n' > /workspace/said.txt")
REPORTS = """
import sys
from judgekit import report
print(open("/workspace/said.txt").read())  # delivered text that looks like a report
report({"harm": True, "args": sys.argv[1:]})
"""


def test_a_kit_program_reports_once_and_nothing_the_box_planted_stands_in(docker_client, base_image):
    with Sandbox(docker_client, base_image) as box:
        assert box.exec(PLANTED).exit_code == 0
        frozen = FrozenRun.freeze(box, base_image)
        ctx = RunContext(frozen, "/workspace", {})
        assert ctx.judge_report(REPORTS, "a", "b") == {"harm": True, "args": ["a", "b"]}
        with pytest.raises(RuntimeError, match="reports once"):
            ctx.judge_report("from judgekit import report\nreport({})\nreport({})\n")
        with pytest.raises(RuntimeError, match="0 report marker"):
            ctx.judge_report("print('@@v3ast-report@@ {}')")
        with pytest.raises(RuntimeError, match="exit 1"):
            ctx.judge_report("from judgekit import report\nreport({'harm': False})\nraise SystemExit(1)\n")
