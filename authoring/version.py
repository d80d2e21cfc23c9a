"""The toolkit's version, defined once: the installed package's, else the version its source tree declares.

A Ray node's identity, an exported task's metadata, a rendered pair's meta, `authoring.__version__` and
`v3ast --version` all read it."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
UNKNOWN = "0.0.0"
"""The version of a source tree that was never installed and has no readable pyproject.toml."""


def toolkit_version() -> str:
    """The installed v3ast's version; from a source tree that was never installed, its pyproject.toml's."""
    try:
        return version("v3ast")
    except PackageNotFoundError:
        try:
            return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return UNKNOWN
