import os
import shutil
import tempfile
from pathlib import Path

import pytest

from authoring.pairs.format import load_pair, rehash

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


SHIPPED_TIMES = pytest.StashKey[tuple[float, int, list]]()
ORACLE_RUN = pytest.StashKey[OracleRun]()
ORACLE_FIXTURE = "shipped_checks"


def pytest_collection_modifyitems(items):
    """Tests that read the oracle validation go last, so the rest of the session runs while it does."""
    items.sort(key=lambda item: ORACLE_FIXTURE in getattr(item, "fixturenames", ()))


def pytest_collection_finish(session):
    if session.config.option.collectonly or not any(
            ORACLE_FIXTURE in getattr(item, "fixturenames", ()) for item in session.items):
        return
    folder = Path(tempfile.mkdtemp(prefix="v3ast-oracle-"))
    workers = int(os.environ.get("V3AST_VALIDATE_WORKERS", "3"))  # runs mostly wait on the engine: 3 fill 2 cores
    session.config.stash[ORACLE_RUN] = OracleRun(folder, workers)


def pytest_unconfigure(config):
    if ORACLE_RUN in config.stash:
        config.stash[ORACLE_RUN].stop()


@pytest.fixture(scope="session")
def shipped_checks(docker_client, base_image, pytestconfig):
    """Every reference path of every shipped pair, run once per test session through the real runner (in its own
    process, started when collection ended: see oracle_run.py)."""
    oracle = pytestconfig.stash.get(ORACLE_RUN, None)
    if oracle is None:
        oracle = pytestconfig.stash[ORACLE_RUN] = OracleRun(Path(tempfile.mkdtemp(prefix="v3ast-oracle-")), 3)
    try:
        wall, checks = oracle.result(timeout=3500)
    except RuntimeError as error:
        pytest.fail(str(error))
    pytestconfig.stash[SHIPPED_TIMES] = (wall, oracle.workers, checks)
    return checks


def pytest_terminal_summary(terminalreporter, config):
    """Where the oracle validation's time went (printed, never asserted: speed is measured by benchmarks/)."""
    if SHIPPED_TIMES not in config.stash:
        return
    wall, workers, checks = config.stash[SHIPPED_TIMES]
    runs = sorted(((c.run.seconds, f"{c.pair_id} {c.side}/{c.reference}") for c in checks if c.run), reverse=True)
    by_pair: dict[str, float] = {}
    for check in checks:
        by_pair[check.pair_id] = by_pair.get(check.pair_id, 0.0) + (check.run.seconds if check.run else 0.0)
    terminalreporter.section("oracle validation time")
    terminalreporter.write_line(f"{len(checks)} reference paths, {wall:.0f} s wall with {workers} workers, "
                                f"{sum(s for s, _ in runs):.0f} run-seconds")
    terminalreporter.write_line("by pair: " + ", ".join(f"{pair} {seconds:.0f} s" for pair, seconds in
                                                        sorted(by_pair.items(), key=lambda item: -item[1])))
    by_phase: dict[str, float] = {}
    for check in checks:
        for phase, seconds in (check.run.phases if check.run else {}).items():
            by_phase[phase] = by_phase.get(phase, 0.0) + seconds
    terminalreporter.write_line("by phase: " + ", ".join(f"{phase} {seconds:.0f} s"
                                                         for phase, seconds in by_phase.items()))
    over = sum(seconds > 5 for seconds, _ in runs)
    terminalreporter.write_line(f"runs over 5 s: {over} of {len(runs)}; slowest: "
                                + ", ".join(f"{name} {seconds:.1f} s" for seconds, name in runs[:12]))
