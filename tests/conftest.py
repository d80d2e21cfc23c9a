import os
import signal

import pytest

from authoring.settings import prepare_agent_environment

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
