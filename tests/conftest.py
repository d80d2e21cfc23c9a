import os
import signal
import time

import pytest

from authoring.machine_cpu import machine_cpu
from authoring.settings import prepare_agent_environment
from tests.authoring.pairs.oracle_run import ORACLE_REPORT, oracle_summary

prepare_agent_environment()
os.environ.setdefault("MSWEA_COST_TRACKING", "ignore_errors")


def pytest_addoption(parser):
    parser.addoption("--oracle", choices=["auto", "default", "changed", "all", "smoke", "none"], default=None,
                     help="Which reference paths run as oracle items: default = those without a matching receipt, "
                     "the smoke set and today's rotating sample; auto (the default) = default, or every item that "
                     "-k, --lf or a node id picked. $V3AST_ORACLE sets it too.")


@pytest.fixture(scope="session")
def docker_client():
    """A live Docker client; missing Docker is a skip locally and a failure under CI=true."""
    from authoring.sandbox.daemon import DockerUnavailable, connect

    try:
        return connect()
    except DockerUnavailable as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Docker is required in CI: {error}")
        pytest.skip(f"no Docker engine: {error}")


@pytest.fixture(scope="session")
def base_image(docker_client):
    """The toolkit's base image, built once if missing."""
    from authoring.sandbox.base_image import ensure_base_image

    return ensure_base_image(docker_client).tag


def sigint_default() -> None:
    """`preexec_fn` for a child the test interrupts with SIGINT: Ctrl-C as a terminal delivers it, even when this
    test run was started in the background of a non-interactive shell (which starts it with SIGINT ignored, and an
    ignored signal stays ignored across exec, so Python would not turn it into KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


TERMINAL_SIZE = ("COLUMNS", "LINES")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    node.workerinput["v3ast_terminal_size"] = {name: os.environ.get(name) for name in TERMINAL_SIZE}


SESSION_CPU = pytest.StashKey[tuple[float, float]]()
TEST_COMMAND_MINUTES = 15
"""The test command's target from a clean clone: the summary says what share of it the machine's CPU allows."""


def pytest_configure(config):
    """An xdist worker starts with COLUMNS=80 in its environment (the controller has none), which a module-level rich
    Console keeps for the whole run, so CLI output wraps unlike in one process: the worker gets the controller's
    COLUMNS and LINES back. The controller notes the machine's CPU for the summary."""
    if not hasattr(config, "workerinput"):
        try:
            config.stash[SESSION_CPU] = (time.monotonic(), machine_cpu())
        except OSError:
            pass
    for name, value in getattr(config, "workerinput", {}).get("v3ast_terminal_size", {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Under `pytest -n` (scripts/test.sh) each worker orders its collection for dealing: tests/xdist_schedule.py."""
    yield
    if hasattr(config, "workerinput"):
        from tests.xdist_schedule import order_items

        order_items(items)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`-n N` with the default `--dist load`: the suite's own units and order (tests/xdist_schedule.py)."""
    if config.getoption("dist") == "load":
        from tests.xdist_schedule import SuiteScheduling

        return SuiteScheduling(config, log)
    return None


def pytest_sessionfinish(session):
    """An xdist worker hands what its oracle items ran to the controller, which prints it."""
    if hasattr(session.config, "workeroutput") and ORACLE_REPORT in session.config.stash:
        session.config.workeroutput["v3ast_oracle"] = session.config.stash[ORACLE_REPORT]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    report = getattr(node, "workeroutput", {}).get("v3ast_oracle")
    if report:
        kept = node.config.stash.setdefault(ORACLE_REPORT, report)
        kept["folder"] = kept["folder"] or report["folder"]


def pytest_terminal_summary(terminalreporter, config):
    """What the oracle selection ran and where its time went, and what the whole machine's CPU spent meanwhile."""
    if ORACLE_REPORT in config.stash:
        oracle_summary(terminalreporter, config.stash[ORACLE_REPORT])
    if SESSION_CPU in config.stash:
        started, cpu = config.stash[SESSION_CPU]
        wall, spent, cores = time.monotonic() - started, machine_cpu() - cpu, os.cpu_count() or 1
        budget = TEST_COMMAND_MINUTES * 60 * cores
        terminalreporter.write_line(
            f"machine CPU over this session: {spent:,.0f} CPU-s in {wall:,.0f} s ({spent / wall:.2f} of {cores} cores "
            f"busy; everything on the machine counts); {TEST_COMMAND_MINUTES} minutes of {cores} cores are "
            f"{budget:,} CPU-s: {spent / budget:.0%} of that")
