"""Mutants of delivered work: the files a correct path delivers, changed in the ways a plausible wrong solution
differs from a right one. Python is mutated on its syntax tree (a check dropped, a boundary moved, rounding or order
changed, a field, a list element, an argument or a chained call left out, a signature accepted whatever it is); any
other text file (shell, configuration, SQL, data) by its lines (one written line left out) and by the SQL it carries
(a WHERE dropped, a LIKE pattern widened or negated, a boundary moved); every changed file also with one of the
path's changes undone (a partial fix). Only the lines the path itself wrote are mutated. A path that delivers no
file (its work is what its commands change, e.g. rows through a service) is mutated in its own commands: the lines
that change state, left out or with their SQL mutated."""

from __future__ import annotations

import ast
import difflib
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice

BOUNDARIES: dict[type, type] = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
ACCEPTING_CALLS = ("compare_digest", "verify", "check", "is_valid", "isvalid", "authorized", "authorised")
SHELL_STRUCTURE = {"fi", "done", "esac", "then", "do", "else", "{", "}", "(", ")", ";;", "EOF", "PY"}
"""Lines whose removal only breaks a script's syntax: not a plausible wrong solution."""
COMMANDS = "<the path's commands>"
"""The `path` of a mutant of the reference path's own script (for a path that delivers no file)."""
CHANGES_STATE = re.compile(r"\b(DELETE\s+FROM|UPDATE\s+[\w.\"]+\s+SET|INSERT\s+(OR\s+\w+\s+)?INTO|REPLACE\s+INTO|"
                           r"DROP\s+(TABLE|VIEW|TRIGGER|INDEX)|CREATE\s+(TEMP\w*\s+)?(TABLE|VIEW|TRIGGER|INDEX)|"
                           r"ALTER\s+TABLE)\b", re.IGNORECASE)
WHERE_CLAUSE = re.compile(r"\s+WHERE\s+(?P<condition>.+?)(?=\s+(ORDER|GROUP)\s+BY\b|\s+LIMIT\b|\s+RETURNING\b|;|\"|$)",
                          re.IGNORECASE)
PATTERN = re.compile(r"(?P<operator>\b(NOT\s+)?(LIKE|GLOB))\s+'(?P<pattern>[^']*)'", re.IGNORECASE)
SQL_BOUNDARIES = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}


@dataclass(frozen=True)
class SourceMutant:
    path: str
    """The delivered file, absolute in the agent's container."""
    operator: str
    line: int
    description: str
    source: str
    """The whole mutated file."""

    @property
    def id(self) -> str:
        return hashlib.sha256(f"{self.path}\0{self.operator}\0{self.source}".encode()).hexdigest()[:10]


Site = tuple[str, int, str, Callable[[], None]]
"""(operator, line, description, apply): `apply` changes the tree in place."""


def written_lines(before: str | None, after: str) -> set[int]:
    """Line numbers (1-based) of `after` that the path added or changed against `before` (all, for a new file)."""
    if before is None:
        return set(range(1, after.count("\n") + 2))
    lines: set[int] = set()
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, _, _, start, end in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            lines.update(range(start + 1, end + 1))
    return lines


def _sites(tree: ast.AST) -> Iterator[Site]:
    for node in ast.walk(tree):
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                for index, child in enumerate(value):
                    if isinstance(child, ast.Raise):
                        yield ("drop-check", child.lineno, "a raise becomes pass",
                               _replace_item(value, index, ast.Pass()))
        if isinstance(node, ast.If) and _guards(node):
            yield ("drop-check", node.lineno, "a guard's condition becomes False", _set(node, "test",
                                                                                       ast.Constant(False)))
        if isinstance(node, ast.BoolOp) and len(node.values) > 1:
            yield ("drop-condition", node.lineno, f"the last of {len(node.values)} conditions is dropped",
                   _set(node, "values", node.values[:-1]))
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                if type(op) in BOUNDARIES:
                    yield ("boundary", node.lineno, f"{type(op).__name__} becomes {BOUNDARIES[type(op)].__name__}",
                           _replace_item(node.ops, index, BOUNDARIES[type(op)]()))
        if isinstance(node, ast.Call):
            name = _called(node)
            if name == "round" and node.args:
                yield ("rounding", node.lineno, "round(x, …) becomes int(x)",
                       _set_all(node, func=ast.Name("int", ast.Load()), args=node.args[:1], keywords=[]))
            if name == "sorted" and node.args:
                yield ("order", node.lineno, "sorted(…) becomes list(…)",
                       _set_all(node, func=ast.Name("list", ast.Load()), args=node.args[:1], keywords=[]))
            if name and name.lower() in ACCEPTING_CALLS:
                yield ("accept-anything", node.lineno, f"{name}(…) becomes True",
                       _become(tree, node, ast.Constant(True)))
            for keyword in node.keywords:
                if keyword.arg == "reverse" and isinstance(keyword.value, ast.Constant):
                    yield ("order", node.lineno, "reverse= is flipped",
                           _set(keyword, "value", ast.Constant(not keyword.value.value)))
        if isinstance(node, ast.Call) and _chained(node):
            yield ("drop-call", node.lineno, f".{node.func.attr}() is left out of the chain",
                   _become(tree, node, node.func.value))
        if isinstance(node, ast.Call) and len(node.args) > 1 and all(_literal(arg) for arg in node.args):
            for index, arg in enumerate(node.args):
                yield ("drop-argument", node.lineno, f"the argument {arg.value!r} of {_called(node)}(…) is left out",
                       _set(node, "args", node.args[:index] + node.args[index + 1:]))
        if isinstance(node, ast.Tuple | ast.List | ast.Set) and len(node.elts) > 1 and all(map(_literal, node.elts)):
            for index, element in enumerate(node.elts):
                yield ("drop-element", node.lineno, f"the element {element.value!r} is left out",
                       _set(node, "elts", node.elts[:index] + node.elts[index + 1:]))
        if isinstance(node, ast.Call) and _called(node) in ("execute", "executemany") and len(node.args) >= 2:
            yield from _unbound(node)
        if isinstance(node, ast.Dict) and len(node.keys) > 1:
            for index, key in enumerate(node.keys):
                if isinstance(key, ast.Constant):
                    yield ("drop-field", node.lineno, f"the field {key.value!r} is left out",
                           _drop_pair(node, index))


def _unbound(call: ast.Call) -> Iterator[Site]:
    """A query whose i-th placeholder (`?` or `%s`) is formatted into the SQL text, quoted, instead of bound."""
    sql, params = call.args[0], call.args[1]
    if not (isinstance(sql, ast.Constant) and isinstance(sql.value, str) and isinstance(params, ast.Tuple | ast.List)):
        return
    marker = "?" if "?" in sql.value else "%s"
    pieces = sql.value.split(marker)
    if len(pieces) - 1 != len(params.elts) or not params.elts:
        return
    for index in range(len(params.elts)):
        values: list[ast.expr] = []
        for number, piece in enumerate(pieces):
            quote = "'" if number in (index, index + 1) else ""
            text = (quote if number == index + 1 else "") + piece + (quote if number == index else "")
            values.append(ast.Constant(text))
            if number == index:
                values.append(ast.FormattedValue(params.elts[index], -1, None))
            elif number < len(pieces) - 1:
                values.append(ast.Constant(marker))
        bound = [element for number, element in enumerate(params.elts) if number != index]
        yield ("unbind", call.lineno, f"parameter {index + 1} of the query is formatted into its text, not bound",
               _set_all(call, args=[ast.JoinedStr(values), type(params)(bound, ast.Load()), *call.args[2:]]))


def _chained(node: ast.Call) -> bool:
    """A method called with no arguments on the result of another expression (`row["email"].strip().lower()`)."""
    return (isinstance(node.func, ast.Attribute) and not isinstance(node.func.value, ast.Name)
            and not node.args and not node.keywords)


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str | int | float) \
        and not isinstance(node.value, bool)


def _guards(node: ast.If) -> bool:
    return not node.orelse and any(isinstance(child, ast.Raise | ast.Return | ast.Continue)
                                   for statement in node.body for child in ast.walk(statement))


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _replace_item(items: list, index: int, new) -> Callable[[], None]:
    def apply() -> None:
        items[index] = new
    return apply


def _set(node: ast.AST, field: str, value) -> Callable[[], None]:
    return lambda: setattr(node, field, value)


def _set_all(node: ast.AST, **fields) -> Callable[[], None]:
    def apply() -> None:
        for field, value in fields.items():
            setattr(node, field, value)
    return apply


def _drop_pair(node: ast.Dict, index: int) -> Callable[[], None]:
    def apply() -> None:
        del node.keys[index]
        del node.values[index]
    return apply


def _become(tree: ast.AST, node: ast.AST, replacement: ast.AST) -> Callable[[], None]:
    def apply() -> None:
        for parent in ast.walk(tree):
            for field, value in ast.iter_fields(parent):
                if value is node:
                    setattr(parent, field, replacement)
                elif isinstance(value, list) and any(item is node for item in value):
                    value[[id(item) for item in value].index(id(node))] = replacement
    return apply


def source_mutants(path: str, before: str | None, after: str) -> list[SourceMutant]:
    """Every mutant of `after` at a site on a line the path wrote, each of one change, in source order."""
    try:
        parsed = ast.parse(after)
    except (SyntaxError, ValueError):
        return []
    written = written_lines(before, after)
    chosen = [number for number, (_, line, _, _) in enumerate(_sites(parsed)) if line in written]
    original = ast.unparse(parsed)
    mutants = []
    for number in chosen:
        tree = ast.parse(after)  # a fresh tree per mutant: each site's change is applied in place
        operator, line, description, apply = next(islice(_sites(tree), number, None))
        apply()
        try:
            source = ast.unparse(ast.fix_missing_locations(tree))
            compile(source, path, "exec")
        except (SyntaxError, ValueError, TypeError):
            continue
        if source != original:
            mutants.append(SourceMutant(path, operator, line, description, source + "\n"))
    return sorted(mutants, key=lambda mutant: mutant.line)


def file_mutants(path: str, before: str | None, after: str) -> list[SourceMutant]:
    """Every mutant of a delivered file: Python on its syntax tree, any other text by its lines and its SQL, and
    either with one of the path's changes undone."""
    if path.endswith(".py"):
        found = source_mutants(path, before, after)
    else:
        found = line_mutants(path, before, after) + sql_mutants(path, after, written_lines(before, after))
    return sorted(found + partial_fixes(path, before, after), key=lambda mutant: mutant.line)


def command_mutants(script: str) -> list[SourceMutant]:
    """Mutants of a path's own script, on the lines that change state (an SQL statement that writes): each left out,
    or with its SQL mutated. Reading lines (a file shown, a SELECT) are left alone: leaving them out changes nothing."""
    lines = script.splitlines(keepends=True)
    changing = {number for number, line in enumerate(lines, 1) if CHANGES_STATE.search(line) and not _comment(line)}
    dropped = [SourceMutant(COMMANDS, "drop-line", number, f"line {number} is left out",
                            "".join(lines[:number - 1] + lines[number:]))
               for number in sorted(changing) if not _continued(lines, number - 1)]
    return sorted(dropped + sql_mutants(COMMANDS, script, changing), key=lambda mutant: mutant.line)


def sql_mutants(path: str, text: str, numbers: set[int]) -> list[SourceMutant]:
    """The SQL on the given lines changed as a plausible wrong query differs from a right one: the WHERE of a
    DELETE or UPDATE dropped, a LIKE/GLOB pattern widened by one character or negated, a comparison's boundary
    moved."""
    lines = text.splitlines(keepends=True)
    mutants = []
    for number in sorted(numbers):
        if number > len(lines):
            continue
        for operator, description, line in _sql_changes(lines[number - 1]):
            source = "".join(lines[:number - 1] + [line] + lines[number:])
            mutants.append(SourceMutant(path, operator, number, f"line {number}: {description}", source))
    return mutants


def _sql_changes(line: str) -> Iterator[tuple[str, str, str]]:
    for where in WHERE_CLAUSE.finditer(line):
        condition = where.group("condition")
        if re.search(r"\b(DELETE|UPDATE)\b", line[:where.start()], re.IGNORECASE) and \
                condition.count("(") == condition.count(")"):
            yield "drop-where", "the WHERE clause is dropped", line[:where.start()] + line[where.end():]
        for match in re.finditer(r"(?<![<>!=])(<=|>=|<|>)(?![<>=])", condition):
            start, end = where.start("condition") + match.start(), where.start("condition") + match.end()
            moved = SQL_BOUNDARIES[match.group()]
            yield "boundary", f"{match.group()} becomes {moved}", line[:start] + moved + line[end:]
    for match in PATTERN.finditer(line):
        pattern, operator = match.group("pattern"), match.group("operator")
        for widened in _widened(pattern):
            start, end = match.span("pattern")
            yield "widen-pattern", f"'{pattern}' becomes '{widened}'", line[:start] + widened + line[end:]
        if not operator.upper().startswith("NOT"):
            start, end = match.span("operator")
            yield "negate-pattern", f"{operator} becomes NOT {operator}", line[:start] + "NOT " + operator + line[end:]


def _widened(pattern: str) -> Iterator[str]:
    """The pattern matching a little more: one literal character next to a leading or trailing wildcard dropped."""
    wildcards = "%*_?"
    if len(pattern) > 2 and pattern[0] in "%*" and pattern[1] not in wildcards:
        yield pattern[0] + pattern[2:]
    if len(pattern) > 2 and pattern[-1] in "%*" and pattern[-2] not in wildcards:
        yield pattern[:-2] + pattern[-1]


def line_mutants(path: str, before: str | None, after: str) -> list[SourceMutant]:
    """One written line left out at a time (not blank lines, comments or lines that only close a block)."""
    lines = after.splitlines(keepends=True)
    mutants = []
    for number in sorted(written_lines(before, after)):
        if number > len(lines) or _structural(lines[number - 1]) or _continued(lines, number - 1):
            continue
        source = "".join(lines[:number - 1] + lines[number:])
        mutants.append(SourceMutant(path, "drop-line", number, f"line {number} is left out", source))
    return mutants


def partial_fixes(path: str, before: str | None, after: str) -> list[SourceMutant]:
    """The path's work with one of its changes (a run of changed lines) undone, when it made more than one change
    to a file the image shipped."""
    if before is None:
        return []
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    hunks = [opcode for opcode in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
             if opcode[0] != "equal"]
    if len(hunks) < 2:
        return []
    mutants = []
    for tag, old_start, old_end, new_start, new_end in hunks:
        if all(map(_comment, old[old_start:old_end] + new[new_start:new_end])):
            continue  # undoing a comment changes nothing the work does
        source = "".join(new[:new_start] + old[old_start:old_end] + new[new_end:])
        mutants.append(SourceMutant(path, "partial-fix", new_start + 1,
                                    f"the change at line {new_start + 1} ({tag}) is undone", source))
    return mutants


def _structural(line: str) -> bool:
    return _comment(line) or line.strip() in SHELL_STRUCTURE


def _comment(line: str) -> bool:
    text = line.strip()
    return not text or text.startswith(("#", "//", ";", "--"))


def _continued(lines: list[str], index: int) -> bool:
    """Part of a command split over lines with a trailing backslash."""
    return lines[index].rstrip("\n").endswith("\\") or (index > 0 and lines[index - 1].rstrip("\n").endswith("\\"))


def spread(mutants: list[SourceMutant], limit: int) -> list[SourceMutant]:
    """At most `limit` mutants, taken in turn from each operator (and within one, from each file) so that every kind
    of change, and every delivered file, is tried."""
    by_operator: dict[str, dict[str, list[SourceMutant]]] = {}
    for mutant in mutants:
        by_operator.setdefault(mutant.operator, {}).setdefault(mutant.path, []).append(mutant)
    queues = {operator: _alternate(list(files.values())) for operator, files in by_operator.items()}
    chosen: list[SourceMutant] = []
    while len(chosen) < limit and any(queues.values()):
        for operator in sorted(queues):
            if queues[operator] and len(chosen) < limit:
                chosen.append(queues[operator].pop(0))
    return chosen


def _alternate(groups: list[list[SourceMutant]]) -> list[SourceMutant]:
    """One from each group in turn."""
    return [group[index] for index in range(max(map(len, groups), default=0)) for group in groups
            if index < len(group)]
