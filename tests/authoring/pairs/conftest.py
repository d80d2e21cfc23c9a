import os
import shutil
import tempfile
from pathlib import Path

import pytest

from authoring.pairs.format import load_pair, load_pairs, rehash
from authoring.pairs.oracle_set import plan_paths, plan_summary

from .failure_classes import ALWAYS_RUN
from .oracle_run import ORACLE_REPORT, SHIPPED, OracleRun


@pytest.fixture
def pair_copy(tmp_path):
    """A fresh, editable copy of a shipped pair: call with its id."""

    def copy(pair_id: str):
        folder = tmp_path / "generated_tasks" / pair_id
        shutil.copytree(SHIPPED / pair_id, folder, ignore=shutil.ignore_patterns("__pycache__"))
        return folder

    return copy


def reload(folder: Path):
    rehash(folder)
    return load_pair(folder)


ORACLE_RUN = pytest.StashKey[OracleRun]()
ORACLE_PLAN = pytest.StashKey[dict]()
ORACLE_MARK = "oracle"


def oracle_selection(config) -> str:
    """`--oracle` (or $V3AST_ORACLE); `auto` runs every oracle item a `-k`, `--lf` or node id picked, else the
    default set."""
    chosen = config.getoption("oracle") or os.environ.get("V3AST_ORACLE", "auto")
    if chosen != "auto":
        return chosen
    narrowed = config.option.keyword or getattr(config.option, "lf", False) or any("::" in arg for arg in config.args)
    return "all" if narrowed else "default"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Oracle items the selection leaves out are deselected; those kept go last, in the order their process runs
    them, so the rest of the session runs while it does (under xdist every worker plans the same items, and they are
    one work unit: tests/xdist_schedule.py)."""
    oracle = [item for item in items if item.get_closest_marker(ORACLE_MARK)]
    if not oracle:
        return
    selection = oracle_selection(config)
    by_path = {item.callspec.params["path"]: item for item in oracle}
    planned = [] if selection == "none" else plan_paths(
        load_pairs(SHIPPED, sorted({pair for pair, _, _ in by_path})), "all" if selection == "all" else selection,
        always=ALWAYS_RUN)
    kept = [p for p in planned if (p.pair.id, str(p.side), p.reference) in by_path]
    paths = [(p.pair.id, str(p.side), p.reference) for p in kept]
    if dropped := [item for path, item in by_path.items() if path not in set(paths)]:
        config.hook.pytest_deselected(items=dropped)
    items[:] = [item for item in items if not item.get_closest_marker(ORACLE_MARK)] + [by_path[p] for p in paths]
    config.stash[ORACLE_PLAN] = {"paths": paths}
    config.stash[ORACLE_REPORT] = {"selection": selection, "summary": plan_summary(kept, len(oracle)), "folder": None}


def start_oracle(config) -> OracleRun | None:
    """The session's validation process, started once, running exactly the kept items."""
    plan = config.stash.get(ORACLE_PLAN, None)
    if ORACLE_RUN not in config.stash and plan and plan["paths"]:
        workers = int(os.environ.get("V3AST_VALIDATE_WORKERS", "3"))  # runs mostly wait on the engine
        folder = Path(tempfile.mkdtemp(prefix="v3ast-oracle-"))
        config.stash[ORACLE_RUN] = OracleRun(folder, plan["paths"], workers)
        config.stash[ORACLE_REPORT]["folder"] = str(folder)
    return config.stash.get(ORACLE_RUN, None)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """Without xdist the oracle items' process starts with the test loop (not at collection) and runs beside the
    rest; an xdist worker starts it with its first oracle item (the `oracle` fixture)."""
    if not session.config.option.collectonly and not hasattr(session.config, "workerinput"):
        start_oracle(session.config)


def pytest_unconfigure(config):
    if ORACLE_RUN in config.stash:
        config.stash[ORACLE_RUN].stop()


@pytest.fixture(scope="session")
def oracle(docker_client, base_image, pytestconfig) -> OracleRun:
    """The session's oracle process: `oracle.result(path, timeout)` waits for one path's result."""
    run = start_oracle(pytestconfig)
    if run is None:
        pytest.fail("the oracle process did not start (is this item deselected by the oracle selection?)")
    return run
