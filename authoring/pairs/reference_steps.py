"""A reference path as the commands an agent would send: one harness command per paragraph of the script.

The script's leading comments and `set` options form a preamble repeated before every command (each command
runs in a fresh shell, as a harness runs it). Paragraphs are separated by blank lines outside heredocs, quotes
and line continuations, so a heredoc or a quoted program with blank lines stays in one command.
"""

from __future__ import annotations

import re

TURN_MARK = re.compile(r"^#\s*turn\s+(\d+)\s*$")
"""`# turn 2` starts the commands that answer the side's second user turn; commands before any mark answer the first."""
HEREDOC = re.compile(r"<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
PREAMBLE = re.compile(r"^\s*(?:#.*|set\s+[-+][A-Za-z ]*(?:-o\s+\w+\s*)*|)$")


def split_turns(script: str) -> list[list[str]]:
    """The commands of a reference script per user turn (see TURN_MARK), turns in order, none skipped."""
    lines = script.splitlines()
    preamble, body = _preamble(lines)
    turns: list[list[str]] = [[]]
    for line in body:
        mark = TURN_MARK.match(line)
        if mark:
            if int(mark.group(1)) != len(turns) + 1:
                raise ValueError(f"reference turn marks must count up from 2: found {line.strip()!r} "
                                 f"after turn {len(turns)}")
            turns.append([])
        else:
            turns[-1].append(line)
    return [split_steps("\n".join([*preamble, *turn])) for turn in turns]


def _preamble(lines: list[str]) -> tuple[list[str], list[str]]:
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    head = 0
    while head < len(lines) and PREAMBLE.match(lines[head]) and not TURN_MARK.match(lines[head]):
        head += 1
    return lines[:head], lines[head:]


def split_steps(script: str) -> list[str]:
    """The commands of a reference script, each with the script's preamble (`set -e` and the like) in front."""
    head, body = _preamble(script.splitlines())
    preamble = [line for line in head if line.strip().startswith("set ")]
    steps, current = [], []
    heredocs: list[tuple[str, bool]] = []
    quote: str | None = None
    continued = False
    for line in body:
        if heredocs:
            current.append(line)
            delimiter, strip_tabs = heredocs[0]
            if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                heredocs.pop(0)
            continue
        if not line.strip() and quote is None and not continued:
            if current:
                steps.append(current)
                current = []
            continue
        current.append(line)
        quote, continued = _scan(line, quote)
        if quote is None:
            heredocs += [(m.group(3), m.group(1) == "-") for m in HEREDOC.finditer(_unquoted(line))]
    if current:
        steps.append(current)
    steps = [step for step in steps if any(not line.strip().startswith("#") for line in step if line.strip())]
    return ["\n".join([*preamble, *step]) for step in steps]


def _scan(line: str, quote: str | None) -> tuple[str | None, bool]:
    """The quote still open at the end of the line, and whether the line continues with a backslash."""
    escaped = False
    for index, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is None and char == "#" and (index == 0 or line[index - 1].isspace()):
            return None, False
        elif quote is None and char in "'\"":
            quote = char
        elif char == quote:
            quote = None
    return quote, escaped and quote is None


def _unquoted(line: str) -> str:
    """The line with quoted text blanked out, so `<<` inside a string is not taken for a heredoc."""
    return re.sub(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"",
                  lambda m: m.group(0)[0] * len(m.group(0)) if "<<" in m.group(0) else m.group(0), line)
