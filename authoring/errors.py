"""Expected failures: the command line prints their message as one line; anything else is a bug and shows its
traceback."""

from __future__ import annotations


class V3astError(Exception):
    """Bad input, a missing Docker engine, an unknown pair, an unreachable endpoint: what a user can fix."""


class BadInput(V3astError, ValueError):
    """An argument, option, file or setting that cannot be used as given."""


class NotFound(V3astError, LookupError):
    """Something named that does not exist: a pair, a batch, a record, a blueprint store."""


class MissingFile(NotFound, FileNotFoundError):
    """A file or folder the command needs is not there."""
