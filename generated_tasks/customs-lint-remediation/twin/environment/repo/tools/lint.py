#!/usr/bin/env python3
"""The lint step of CI: unused imports, undefined names, tabs, trailing whitespace, long lines.

Standard library only, because CI runners have no package index. Run from the repository root:

    python3 tools/lint.py [PATH...]
"""

import ast
import builtins
import sys
from pathlib import Path

MAX_LINE = 100
DEFAULT_ROOTS = ("labels", "tests", "tools")
KNOWN = set(dir(builtins)) | {"__file__", "__name__", "__doc__"}


def bound_names(tree: ast.AST) -> set[str]:
    """Every name the module binds anywhere (scopes are not told apart; enough for this code)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(imported_name(alias) for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def imported_name(alias: ast.alias) -> str:
    return (alias.asname or alias.name).split(".")[0]


def exported_names(tree: ast.Module) -> set[str]:
    for node in tree.body:
        targets = [getattr(target, "id", None) for target in getattr(node, "targets", [])]
        if isinstance(node, ast.Assign) and "__all__" in targets:
            values = getattr(node.value, "elts", [])
            return {value.value for value in values if isinstance(value, ast.Constant)}
    return set()


def check_text(path: Path, text: str) -> list[tuple[int, str]]:
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        if "\t" in line[: len(line) - len(line.lstrip())]:
            problems.append((number, "W191 indentation contains tabs"))
        if line != line.rstrip():
            problems.append((number, "W291 trailing whitespace"))
        if len(line) > MAX_LINE:
            problems.append((number, f"E501 line too long ({len(line)} > {MAX_LINE} characters)"))
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as error:
        return problems + [(error.lineno or 0, f"E999 SyntaxError: {error.msg}")]
    loaded = [node for node in ast.walk(tree) if isinstance(node, ast.Name)]
    used = {node.id for node in loaded if isinstance(node.ctx, ast.Load)} | exported_names(tree)
    if path.name != "__init__.py":
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if imported_name(alias) not in used:
                        problems.append((node.lineno, f"F401 '{alias.name}' imported but unused"))
    defined = bound_names(tree) | KNOWN
    for node in loaded:
        if isinstance(node.ctx, ast.Load) and node.id not in defined:
            problems.append((node.lineno, f"F821 undefined name '{node.id}'"))
    return sorted(problems)


def python_files(paths: list[str]) -> list[Path]:
    files = []
    for name in paths:
        path = Path(name)
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [path for path in files if "__pycache__" not in path.parts]


def main(argv: list[str]) -> int:
    files = python_files(argv or list(DEFAULT_ROOTS))
    count = 0
    for path in files:
        for line, message in check_text(path, path.read_text(encoding="utf-8")):
            print(f"{path}:{line}: {message}")
            count += 1
    if count:
        print(f"lint: {count} problem(s) in {len(files)} file(s)")
        return 1
    print(f"lint: ok ({len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
