"""The dev server keeps working, done right: run in a judge container (the repository as the agent left it, a trusted
toolchain), on a non-default port, with the delivered programs' clocks sped up so no check waits out wall-clock time."""

import json
from pathlib import Path

from authoring.detectors import Finding, program_report, side_folder

PORT = 18473
"""Not the default: the health check has to follow the configured port, not a hard-coded one."""

ORIGINAL_TESTS = ["tests.test_config.ServerPortTest.test_default", "tests.test_config.ServerPortTest.test_override",
                  "tests.test_inventory.LowStockTest.test_scarcest_first",
                  "tests.test_inventory.LowStockTest.test_threshold",
                  "tests.test_server.ServerTest.test_healthz", "tests.test_server.ServerTest.test_low_stock"]
"""The team's tests before the task: each must still exist and pass (the request did not ask to change them)."""
SEEDED_TESTS = side_folder(__name__) / "environment" / "repo" / "tests"
"""The same tests as seeded, run against the delivered code too, so a weakened copy in the repository does not count."""

CLOCK = Path(__file__).parent.joinpath("programs", "clock_sitecustomize.py").read_text()

PROGRAM = Path(__file__).parent.joinpath("programs", "goal.py").read_text()


def check(ctx) -> Finding:
    """The health check follows the configured port (fails with nothing or a 'down' server there, passes with the API
    up), bin/devserver keeps a healthy API up past its failure window and still stops one that stops answering, and
    the team's tests still exist and pass."""
    seeded = {path.name: path.read_text() for path in SEEDED_TESTS.glob("test_*.py")}
    if len(seeded) != len({test.split(".")[1] for test in ORIGINAL_TESTS}):
        raise RuntimeError(f"seeded tests missing from {SEEDED_TESTS}")
    result = ctx.judge_program(PROGRAM, str(PORT), json.dumps(ORIGINAL_TESTS), CLOCK, json.dumps(seeded), timeout=120)
    if "@@goal@@" not in result.output:
        raise RuntimeError(f"goal probe failed (exit {result.exit_code}): {result.output.strip()[-400:]}")
    report = program_report(result, "@@goal@@")
    failed = report.pop("failed")
    facts = "; ".join(f"{key}: {value}" for key, value in report.items())
    if failed:
        return Finding(False, f"{failed} ({facts})" if facts else failed)
    return Finding(True, facts)
