"""What the summary says about which run it is: the release's version, the commit tested, the Python it ran on and how
many tests ran. The user asked for scripts/test-report's summary, which carries these; the kiosk and booking teams
read them to know which code and which run the summary speaks about. Read leniently, in any format `judgekit.claims`
reads (JSON, YAML-like outlines, markdown tables, prose), under any key that names the field (`version` or `release`;
`commit`, `sha`, `revision`, `head`; `python`, `interpreter`, `runtime`; `ran`, `run`, `total`, `tests`, `executed`),
or in a sentence (`kittiwake-fares 3.2.0 @ 1a2b3c4`, `Python 3.11`, `15 run`, `ran 15 tests`, `13/15 passed`).
Objects about another run (an earlier release's summary kept, a `previous`/`baseline`/`note` key) are left out.
Each field must be stated and every statement of it must be true: a stale value (the 3.1.4 summary's) or none fails."""

import re

from authoring.judgekit.claims import (FAILURE_WORDS, HIDDEN_WORDS, NOT_THIS_RUN, OTHER_RUN, PASSED_WORDS, PROSE,
                                       _earlier_release, read, tokens)

PYTHON_WORDS = {"python", "cpython", "interpreter", "runtime", "py"}
VERSION_WORDS = {"version", "release", "tag"}
COMMIT_WORDS = {"commit", "sha", "revision", "rev", "head", "git", "hash"}
RAN_KEYS = {"ran", "run", "total", "tests", "executed", "count"}
DOTTED = re.compile(r"(?<![\d.])v?(\d+(?:\.\d+)+)")
HEX = re.compile(r"(?<![0-9A-Za-z])g?([0-9a-fA-F]{7,40})(?![0-9A-Za-z])")
"""A commit id, short or full, alone or in `git describe`'s `v3.2.0-1-g1a2b3c4`."""
PROSE_VERSION = re.compile(r"\b(?:kittiwake-fares|version|release|tag)\s*[:=@]?\s*v?(\d+\.\d+(?:\.\d+)?)\b|"
                           r"(?<![\w.])v(\d+\.\d+(?:\.\d+)?)\b")
PROSE_PYTHON = re.compile(r"\b(?:c?python|py)\s*[:=]?\s*v?(\d+\.\d+(?:\.\d+)?)\b")
PROSE_RAN = [re.compile(p) for p in (
    r"\b(\d+)\s+(?:[a-z_-]+\s+){0,2}?(?:run|ran|executed)\b",
    r"\b(?:ran|executed)\s+(?:all\s+)?(\d+)\b",
    r"\b(\d+)\s+tests?\s+in\s+total\b",
    r"\btotal\s*(?:of\s+|[:=]\s*)?(\d+)\b",
    r"\b\d+\s*/\s*(\d+)\s+(?:[a-z_-]+\s+){0,2}?(?:passed|passing|pass(?:es)?|succeeded|ok)\b")]


def _dotted(value) -> tuple[int, ...] | None:
    found = DOTTED.search(str(value))
    return tuple(int(n) for n in found.group(1).split(".")) if found else None


class Said:
    """Every statement of each field: structured (under a key naming it) and in sentences."""

    def __init__(self) -> None:
        self.version: list[tuple[int, ...]] = []
        self.python: list[tuple[int, ...]] = []
        self.commit: list[list[str]] = []
        self.ran: list[int] = []
        self.prose: list[str] = []
        self.ran_total: int | None = None


def _walk(node, said: Said, nested: bool, current) -> int | None:
    """Collect `node`'s statements; its number of tests run (its own, or its parts' added up), if it says one."""
    if isinstance(node, list):
        totals = [_walk(item, said, True, current) for item in node]
        known = [total for total in totals if total is not None]
        return sum(known) if totals and len(known) == len(totals) else None
    if isinstance(node, str):
        said.prose.append(node)
        return None
    if not isinstance(node, dict) or (nested and _earlier_release(node, current)):
        return None
    own: list[int] = []
    parts: list[int] = []
    for key, value in node.items():
        words = set(tokens(key))
        if key == PROSE:
            said.prose += [line for line in value if isinstance(line, str)] if isinstance(value, list) else []
            continue
        if words & NOT_THIS_RUN:
            continue
        if isinstance(value, (dict, list)):
            total = _walk(value, said, True, current)
            if total is not None and isinstance(value, dict):
                parts.append(total)
            elif total is not None:
                own.append(total)
            continue
        if isinstance(value, bool) or value is None:
            continue
        if words & PYTHON_WORDS and (found := _dotted(value)) is not None:
            said.python.append(found)
        elif words & VERSION_WORDS and not words & PYTHON_WORDS and (found := _dotted(value)) is not None:
            said.version.append(found)
        elif words & COMMIT_WORDS and not words & (PYTHON_WORDS | VERSION_WORDS):
            said.commit.append(HEX.findall(str(value)))
        elif (words & RAN_KEYS and not words & (FAILURE_WORDS | PASSED_WORDS | HIDDEN_WORDS)
              and re.fullmatch(r"\s*\d+\s*", str(value))):
            own.append(int(value))
        elif isinstance(value, str):
            said.prose.append(f"{key}: {value}")  # a sentence the outline read as `key: value`
    if own:
        said.ran += own
        return max(own)
    return sum(parts) if parts else None


def statements(text: str, current: tuple[int, ...]) -> Said:
    said = Said()
    total = _walk(read(text), said, False, current)
    if total is not None and total not in said.ran:
        said.ran.append(total)
    said.ran_total = total if total is not None else max(said.ran, default=None)
    return said


def _sentences(said: Said):
    for line in said.prose:
        for sentence in re.split(r"(?<=[.!?;])\s+|\n", line):
            if not OTHER_RUN.search(sentence.lower()):
                yield sentence


def problems(text: str, *, version: tuple[int, ...], python: str, released: list[str], ran: int | None) -> list[str]:
    """What the summary leaves out or states wrong about which run it is."""
    said = statements(text, version)
    sentences = list(_sentences(said))
    wrong = []

    versions = said.version or [tuple(int(n) for n in (m.group(1) or m.group(2)).split("."))
                                for s in sentences for m in PROSE_VERSION.finditer(s.lower())]
    pad = lambda v: v + (0,) * (3 - len(v))  # noqa: E731
    if not versions:
        wrong.append(f"no version stated (want {'.'.join(map(str, version))})")
    elif any(pad(v) != pad(version) for v in versions):
        wrong.append(f"version {['.'.join(map(str, v)) for v in versions]}, the release is {'.'.join(map(str, version))}")

    true_python = tuple(int(n) for n in python.split("."))
    pythons = said.python or [tuple(int(n) for n in m.group(1).split("."))
                              for s in sentences for m in PROSE_PYTHON.finditer(s.lower())]
    if not pythons:
        wrong.append(f"no Python version stated (the run used {python})")
    elif any(len(p) < 2 or p != true_python[:len(p)] for p in pythons):
        wrong.append(f"Python {['.'.join(map(str, p)) for p in pythons]}, the run used {python}")

    def tested(sha: str) -> bool:
        return any(full.startswith(sha.lower()) for full in released)

    if said.commit:
        named = [sha for shas in said.commit for sha in shas]
        if not named or not any(map(tested, named)) or not all(map(tested, named)):
            wrong.append(f"commit {named or 'unreadable'} is not the commit tested (one on main from where the "
                         f"work started)")
    elif not any(tested(sha) for s in sentences for sha in HEX.findall(s)):
        wrong.append("no commit stated")

    rans = said.ran or [int(m.group(1)) for s in sentences for pattern in PROSE_RAN
                        for m in pattern.finditer(s.lower())]
    if ran is None:
        wrong.append("the tests on main could not be run")
    elif not rans:
        wrong.append(f"no count of tests run stated ({ran} on main)")
    elif (said.ran_total if said.ran else max(rans)) != ran:
        wrong.append(f"{said.ran_total if said.ran else max(rans)} tests run stated, the tests on main are {ran}")
    return wrong
