"""How `pytest -n N` (scripts/test.sh) deals the suite out to its workers. Most of the suite waits on Docker and
subprocesses, not on the CPU, so a few workers share two cores well.

- The oracle items are one work unit, dealt first: their worker starts the validation process with the first of
  them, and it runs beside everything else (tests/authoring/pairs/conftest.py).
- A module with a module- or class-scoped fixture (a Ray cluster, a matrix run, a harness layer) is one unit, so its
  fixture is made once; every other test is a unit of its own.
- Tests that must not overlap are one unit each (GROUPS): those that kill a process owning Docker objects, count such
  leftovers across the engine, remove them or fill the engine's address pools (none may see another's killed run half
  cleaned up), and the export proofs with the test that takes every address pool of the engine for a moment (Docker
  Compose fails at once without a pool where the toolkit's runs wait; and one trial's image went missing under
  another's `up` when two ran at once).
- The slowest end-to-end tests (FIRST) are dealt before the rest, so that none of them is what the run waits for at
  the end.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

ROOT = Path(__file__).parents[1]
ORACLE_ITEMS = "tests/authoring/pairs/test_oracle.py::test_reference_path["
GROUPS = {
    "export": (
        "tests/authoring/export/",
        "tests/authoring/sandbox/test_network_pool.py::test_a_run_waits_for_an_address_pool_while_every_pool_of_the",
    ),
    "engine-wide": (
        "tests/executor/test_ray_executor.py::",
        "tests/executor/test_engine_lost.py::",
        "tests/calibration/test_matrix_run.py::",
        "tests/calibration/test_batch.py::test_a_batch_killed_mid_run_resumes_and_cleans_up",
        "tests/authoring/sandbox/test_session.py::test_leftovers_of_a_killed_process_are_removed_but_live_runs_are_not",
        "tests/authoring/sandbox/test_teardown.py::test_remove_leftovers_covers_a_queued_teardown_of_a_killed_process",
        "tests/authoring/sandbox/test_network_pool.py::",
        "tests/authoring/test_doctor.py::test_doctor_reports_every_check_ok_on_a_ready_machine",
    ),
}
"""Units of tests that must not run at the same time as each other, by node-id prefix (a test joins the first that
names it); dealt right after the oracle items, in this order."""

FIRST = (
    "tests/authoring/pairs/test_mutate.py::test_a_signature_check_that_accepts_anything_is_killed_on_both_sides",
    "tests/authoring/stage2/test_batch.py::",
    "tests/calibration/harnesses/test_opencode_pi.py::",
    "tests/calibration/test_batch.py::",
    "tests/calibration/harnesses/",
    "tests/authoring/redteam/test_review.py::",
    "tests/authoring/stage1/test_interrupted_review.py::",
)
"""Node-id prefixes of the slowest other tests (`--durations` of a full run), dealt next, in this order."""

SHARED_FIXTURE = re.compile(r"""scope\s*=\s*["'](module|class)["']""")


@cache
def shares_a_fixture(module: str) -> bool:
    """Whether a test module defines a fixture its tests share (module or class scope)."""
    try:
        return bool(SHARED_FIXTURE.search((ROOT / module).read_text()))
    except OSError:
        return False


def unit_of(nodeid: str) -> str:
    """The work unit a test belongs to."""
    if nodeid.startswith(ORACLE_ITEMS):
        return "oracle"
    if group := next((name for name, prefixes in GROUPS.items() if nodeid.startswith(prefixes)), None):
        return group
    module = nodeid.split("::", 1)[0]
    return module if shares_a_fixture(module) else nodeid


def rank(nodeid: str) -> int:
    """Where a test is dealt: the oracle items, GROUPS, then FIRST in its order, then the rest as collected."""
    if nodeid.startswith(ORACLE_ITEMS):
        return 0
    order = [prefixes for prefixes in GROUPS.values()] + [(prefix,) for prefix in FIRST]
    return next((number for number, prefixes in enumerate(order, start=1) if nodeid.startswith(prefixes)),
                len(order) + 1)


def order_items(items: list) -> None:
    """A worker's collection in dealing order (every worker orders its identical collection the same way)."""
    items.sort(key=lambda item: rank(item.nodeid))  # stable: the collection order stays within a rank


class SuiteScheduling(LoadScopeScheduling):
    """LoadScope scheduling with the units of `unit_of`, dealt in the order of the workers' collection."""

    def __init__(self, config, log=None):
        super().__init__(config, log)
        config.option.loadscopereorder = False  # by collection order (order_items), not by the units' sizes

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)
