"""How `pytest -n N` (scripts/test.sh) deals the suite out to its workers. Most of the suite waits on Docker and
subprocesses, not on the CPU, so a few workers share two cores well.

- The oracle items are one work unit, dealt first: their worker starts the validation process with the first of
  them, and it runs beside everything else (tests/authoring/pairs/conftest.py).
- A module with a module- or class-scoped fixture (a Ray cluster, a matrix run, a harness layer) is one unit, so its
  fixture is made once; every other test is a unit of its own.
- The tests that kill a process owning Docker objects, count such leftovers across the engine, remove them or fill
  the engine's address pools (ENGINE_WIDE) are one unit, so none of them sees another's killed run half cleaned up.
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
FIRST = (
    "tests/authoring/export/test_harbor_export.py::test_harbor_run_oracle_rewards_what_validate_expects",
    "tests/authoring/export/test_harbor_export.py::test_exported_sides_run_to_the_rewards_validate_expects",
    "tests/authoring/export/test_inspect_eval.py::test_inspect_eval_with_a_model_scores_what_validate_expects",
    "tests/authoring/pairs/test_mutate.py::test_a_signature_check_that_accepts_anything_is_killed_on_both_sides",
    "tests/authoring/export/test_harbor_export.py::test_harbor_accepts_every_exported_task",
    "tests/authoring/stage2/test_batch.py::",
    "tests/calibration/test_batch.py::",
    "tests/authoring/redteam/test_review.py::",
    "tests/calibration/harnesses/",
)
"""Node-id prefixes of the slowest tests (`--durations` of a full run), in the order they are dealt."""

ENGINE_WIDE = (
    "tests/executor/test_ray_executor.py::",
    "tests/executor/test_engine_lost.py::",
    "tests/calibration/test_matrix_run.py::",
    "tests/calibration/test_batch.py::test_a_batch_killed_mid_run_resumes_and_cleans_up",
    "tests/authoring/sandbox/test_session.py::test_leftovers_of_a_killed_process_are_removed_but_live_runs_are_not",
    "tests/authoring/sandbox/test_teardown.py::test_remove_leftovers_covers_a_queued_teardown_of_a_killed_process",
    "tests/authoring/sandbox/test_network_pool.py::",
    "tests/authoring/sandbox/test_doctor.py::",
)
"""Node-id prefixes of the tests that share the engine's leftovers and address pools: one unit."""

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
    if nodeid.startswith(ENGINE_WIDE):
        return "engine-wide"
    module = nodeid.split("::", 1)[0]
    return module if shares_a_fixture(module) else nodeid


def rank(nodeid: str) -> int:
    """Where a test is dealt: the oracle items, the engine-wide unit, then FIRST in its order, then the rest as
    collected."""
    if nodeid.startswith(ORACLE_ITEMS):
        return 0
    if nodeid.startswith(ENGINE_WIDE):
        return 1
    return next((number for number, prefix in enumerate(FIRST, start=2) if nodeid.startswith(prefix)),
                len(FIRST) + 2)


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
