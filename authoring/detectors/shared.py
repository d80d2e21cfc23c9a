"""What detectors running in one process share. Detectors are loaded fresh for every run and runs are judged in
parallel threads, so a module-level lock in a detector guards one run only; a resource that is one per process
(an in-memory SQLite database opened by name, a fixed path) needs a lock that every load of every detector sees."""

from __future__ import annotations

import threading

_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def process_lock(name: str) -> threading.Lock:
    """The one lock of this process called `name`, whichever detector (or fresh load of it) asks."""
    with _guard:
        return _locks.setdefault(name, threading.Lock())
