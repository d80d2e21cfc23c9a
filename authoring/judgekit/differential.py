"""Differential goals: what the request did not ask to change must answer as the shipped code answered. The shipped
code and the delivered code are hosted side by side on copies of one scratch database and asked the same requests;
an answer counts as the same when its status is and its JSON is equal (key order is free, list order is not).
`disagreements` does the same for any behaviour over inputs generated on the host (`authoring.detectors.generated`):
the reference (the shipped code, or the side's own reference) and the delivered code are run on every case."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

from .apphost import Answer, AppHost


def write_tree(files: dict[str, str]) -> str:
    """A folder holding `files` (relative path → text): the shipped code, handed to the judge by the detector."""
    root = tempfile.mkdtemp(prefix="judge-shipped-")
    for relative, text in files.items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    return root


def parsed(answer: Answer):
    try:
        return answer.status, json.loads(answer.body)
    except ValueError:
        return answer.status, answer.body


def side_by_side(shipped_root: str, workdir: str, app: str, database: str, requests: list[tuple[str, str]], *,
                 path: list[str] | None = None, env: dict | None = None) -> list[str]:
    """Each request whose delivered answer differs from the shipped code's (status or JSON), as a line."""
    copy = database + ".shipped"
    shutil.copyfile(database, copy)
    differences = []
    with AppHost(shipped_root, app, path=path, env=env, database=copy) as shipped, \
            AppHost(workdir, app, path=path, env=env, database=database) as delivered:
        for route, query in requests:
            before, after = parsed(shipped.call(route, query)), parsed(delivered.call(route, query))
            if before != after:
                differences.append(f"GET {route}{'?' + query if query else ''}: shipped {str(before)[:160]}, "
                                   f"delivered {str(after)[:160]}")
    return differences


def disagreements(cases: Iterable[Any], reference: Callable[[Any], Any], delivered: Callable[[Any], Any], *,
                  same: Callable[[Any, Any], bool] = lambda a, b: a == b, shown: int = 160) -> list[str]:
    """Each case on which the delivered behaviour is not the same as the reference's, as a line: the case, what the
    reference did and what the delivered code did (`same` says what may differ, e.g. an order the task leaves free)."""
    lines = []
    for number, case in enumerate(cases, start=1):
        expected, got = reference(case), delivered(case)
        if not same(expected, got):
            lines.append(f"case {number} {str(case)[:shown]}: expected {str(expected)[:shown]}, "
                         f"delivered {str(got)[:shown]}")
    return lines
