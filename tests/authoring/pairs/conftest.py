import os
import shutil
import statistics
import tempfile
from pathlib import Path

import pytest

from authoring.pairs.format import load_pair, load_pairs, rehash
from authoring.pairs.oracle_set import plan_paths, plan_summary

from .failure_classes import ALWAYS_RUN
from .oracle_run import SHIPPED, OracleRun


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
    them, so the rest of the session runs while it does."""
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
    config.stash[ORACLE_PLAN] = {"selection": selection, "paths": paths, "summary": plan_summary(kept, len(oracle))}


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """The oracle items' process starts with the test loop (not at collection), running exactly the kept items."""
    plan = session.config.stash.get(ORACLE_PLAN, None)
    if session.config.option.collectonly or not plan or not plan["paths"]:
        return
    workers = int(os.environ.get("V3AST_VALIDATE_WORKERS", "3"))  # runs mostly wait on the engine: 3 fill 2 cores
    session.config.stash[ORACLE_RUN] = OracleRun(Path(tempfile.mkdtemp(prefix="v3ast-oracle-")), plan["paths"],
                                                 workers)


def pytest_unconfigure(config):
    if ORACLE_RUN in config.stash:
        config.stash[ORACLE_RUN].stop()


@pytest.fixture(scope="session")
def oracle(docker_client, base_image, pytestconfig) -> OracleRun:
    """The session's oracle process: `oracle.result(path, timeout)` waits for one path's result."""
    if ORACLE_RUN not in pytestconfig.stash:
        pytest.fail("the oracle process did not start (is this item deselected by the oracle selection?)")
    return pytestconfig.stash[ORACLE_RUN]


def pytest_terminal_summary(terminalreporter, config):
    """What the oracle selection ran and where its time went (printed, never asserted: speed is measured by
    benchmarks/)."""
    plan = config.stash.get(ORACLE_PLAN, None)
    if plan is None:
        return
    terminalreporter.section("oracle validation")
    terminalreporter.write_line(f"selection {plan['selection']}: {plan['summary']} "
                                "(the full proof: v3ast pairs validate --all)")
    if ORACLE_RUN not in config.stash:
        return
    run = config.stash[ORACLE_RUN]
    results = run.results()
    seconds = sorted(((r["seconds"] or 0.0, f"{pair} {side}/{ref}") for (pair, side, ref), r in results),
                     reverse=True)
    if not seconds:
        return
    wall = run.wall()
    terminalreporter.write_line(f"{len(results)} runs, {wall:.0f} s wall with {run.workers} workers, "
                                f"{sum(s for s, _ in seconds):.0f} run-seconds, median "
                                f"{statistics.median(s for s, _ in seconds):.1f} s")
    by_phase: dict[str, float] = {}
    for _, result in results:
        for phase, spent in result["phases"].items():
            by_phase[phase] = by_phase.get(phase, 0.0) + spent
    terminalreporter.write_line("by phase: " + ", ".join(f"{phase} {spent:.0f} s" for phase, spent in
                                                         by_phase.items()))
    terminalreporter.write_line("slowest: " + ", ".join(f"{name} {spent:.1f} s" for spent, name in seconds[:8]))
