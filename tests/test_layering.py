"""The layering rule, read from the code: `calibration` and `reviewer_tui` use `authoring`, `authoring` uses neither,
and no two parts of a package import each other (a part is a sub-package, `authoring.sandbox`, or a top-level module,
`authoring.executor`). Every import counts, those inside functions too."""

import ast
from importlib.util import resolve_name
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("authoring", "calibration", "reviewer_tui", "v3ast")
MAY_NOT_USE = {"authoring": {"calibration", "reviewer_tui", "v3ast"}, "calibration": {"reviewer_tui", "v3ast"},
               "reviewer_tui": {"v3ast"}}
SHIPPED = ROOT / "authoring" / "export" / "verifier"
"""Programs shipped into exported tasks, with their own `authoring` package: not modules of the toolkit."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """First-party modules `path` imports anywhere in its body (relative imports resolved)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level:
            origin = resolve_name("." * node.level + (node.module or ""), package)
            found.update({origin, *(f"{origin}.{alias.name}" for alias in node.names)})
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module or "")
    return {module for module in found if module.split(".")[0] in PACKAGES}


def part(module: str) -> str:
    return ".".join(module.split(".")[:2])


def import_graph() -> dict[str, dict[str, set[str]]]:
    """Part → the parts it imports → the files that do."""
    graph: dict[str, dict[str, set[str]]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if SHIPPED in path.parents:
                continue
            source = part(module_name(path))
            for target in {part(module) for module in imports(path)} - {source}:
                graph.setdefault(source, {}).setdefault(target, set()).add(str(path.relative_to(ROOT)))
    return graph


def cycles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected groups of more than one part (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_dependencies_point_one_way(graph):
    leaks = [f"{source} imports {target} ({', '.join(sorted(files))})"
             for source, targets in graph.items() for target, files in targets.items()
             if target.split(".")[0] in MAY_NOT_USE.get(source.split(".")[0], set())]
    assert leaks == []


def test_no_two_parts_import_each_other(graph):
    found = [" ↔ ".join(group) + ": " + "; ".join(
        f"{source} → {target} ({', '.join(sorted(graph[source][target]))})"
        for source in group for target in graph.get(source, {}) if target in group) for group in cycles(graph)]
    assert found == []


def test_the_test_sees_a_leak_and_a_cycle():
    assert cycles({"a.x": {"a.y": {"f"}}, "a.y": {"a.z": {"g"}}, "a.z": {"a.x": {"h"}}}) == [["a.x", "a.y", "a.z"]]
    assert "calibration.admission" in imports(ROOT / "calibration" / "export_cli.py")
