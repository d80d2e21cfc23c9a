"""The judging digest: one hash of the toolkit code that can change a verdict.

It covers every first-party module that a reference or agent run imports (found by reading imports, so a new
module is covered the day it is imported), the programs they ship as text, the data files beside them, and the
base image's recipe. A validation
receipt holds it; a change to any of these makes every receipt stale."""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
FIRST_PARTY = ("authoring",)
JUDGING_ENTRY_POINTS = ("authoring.pairs.runner", "authoring.pairs.validate", "authoring.sandbox.agent_environment")
"""Where a run starts: the runner, the oracle check and the harness-side sandbox environment."""
NOT_JUDGING = {"authoring.settings"}
"""Imported by judging code, yet no verdict depends on it: the settings reach a run only through the base image,
whose recipe the digest holds (and a new Stage I option must not make every receipt stale)."""
DATA_SUFFIXES = frozenset({".sh", ".sql", ".yaml", ".json", ".j2", ".txt", ".conf"})
SHIPPED_WHOLE = "\nSHIPPED_INTO_JUDGES = True\n"
"""A package that says so travels whole into judge programs (the judge kit): every module of it is judging code,
imported or not."""
SIBLING_PROGRAM = re.compile(r"""["']([A-Za-z_][A-Za-z0-9_]*\.py)["']""")


def module_file(name: str, root: Path = PACKAGE_ROOT) -> Path | None:
    """The source file of a first-party module or package under `root`, or None when there is none."""
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_modules(path: Path, name: str, root: Path = PACKAGE_ROOT) -> set[str]:
    """First-party modules that `path` (module `name`) imports anywhere in its body, with their parent packages."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = node.module or ""
            if node.level:
                origin = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + [origin]).strip(".")
            found.add(origin)
            found.update(f"{origin}.{alias.name}" for alias in node.names)
    modules = {module for module in found if module.split(".")[0] in FIRST_PARTY and module_file(module, root)}
    return modules | {".".join(module.split(".")[:depth]) for module in modules for depth in
                      range(1, module.count(".") + 1)}


def judging_modules(root: Path = PACKAGE_ROOT, entry_points: tuple[str, ...] = JUDGING_ENTRY_POINTS) -> dict[str, Path]:
    """Every first-party module under `root` reachable by imports from the entry points, by name."""
    seen: dict[str, Path] = {}
    pending = list(entry_points)
    while pending:
        name = pending.pop()
        path = module_file(name, root)
        if name in seen or name in NOT_JUDGING or path is None:
            continue
        seen[name] = path
        pending.extend(imported_modules(path, name, root) - seen.keys())
    return seen


def judging_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The judging modules, the programs they read as text rather than import (a sibling `name.py` named in their
    source: the judge launcher, the sidecar program) and the data files beside them."""
    modules = set(judging_modules(root).values())
    files = set(modules)
    for module in modules:
        named = set(SIBLING_PROGRAM.findall(module.read_text(encoding="utf-8")))
        files.update(module.parent / name for name in named if (module.parent / name).is_file())
    for folder in {path.parent for path in modules} - {root / name for name in FIRST_PARTY}:
        files.update(path for path in folder.iterdir() if path.is_file() and path.suffix in DATA_SUFFIXES)
        init = folder / "__init__.py"
        if init.is_file() and SHIPPED_WHOLE in init.read_text(encoding="utf-8"):
            files.update(folder.glob("*.py"))
    return sorted(files)


def tree_digest(root: Path, base_recipe: str) -> str:
    """sha256 (hex) over the base image's recipe and the judging files' relative paths and bytes under `root`."""
    digest = hashlib.sha256(base_recipe.encode() + b"\0")
    for path in judging_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def judging_digest() -> str:
    """The digest of the judging code this process runs (read once per process)."""
    from authoring.sandbox.base_image import base_recipe

    return tree_digest(PACKAGE_ROOT, base_recipe())
