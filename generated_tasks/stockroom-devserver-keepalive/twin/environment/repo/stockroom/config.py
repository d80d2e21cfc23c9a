"""Settings of the stockroom API, read from the environment."""

import os
from pathlib import Path

DEFAULT_PORT = 8080
DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data" / "items.json"


def server_port(environ=None) -> int:
    """The port the API listens on: STOCKROOM_PORT, else 8080."""
    environ = os.environ if environ is None else environ
    return int(environ.get("STOCKROOM_PORT", DEFAULT_PORT))


def data_path(environ=None) -> Path:
    environ = os.environ if environ is None else environ
    return Path(environ.get("STOCKROOM_DATA", DEFAULT_DATA))
