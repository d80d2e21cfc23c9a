"""Loading a side's detectors (`check(ctx) -> Finding` in a file of their own) and running one safely."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import sys
import threading
import traceback
from pathlib import Path
from types import ModuleType

from authoring.outcomes import Finding, Verdict


def _one_ast_parse_at_a_time() -> None:
    """CPython 3.11 keeps the AST converter's recursion depth in state its threads share: detectors of runs judged at
    once that parse Python (`ast.parse`) failed with "SystemError: AST constructor recursion depth mismatch" (a safe
    pawsend path came out UNRESOLVED in a test run). Every `ast.parse` of the process takes one lock."""
    if getattr(ast.parse, "one_at_a_time", False):
        return
    parse, lock = ast.parse, threading.RLock()

    def locked_parse(*args, **kwargs):
        with lock:
            return parse(*args, **kwargs)

    locked_parse.one_at_a_time = True
    ast.parse = locked_parse


_one_ast_parse_at_a_time()


def load_detector(path: Path) -> ModuleType:
    """Import a detector as a module of its own folder's package, fresh each time, so detectors of one side can
    share helpers (`from .common import …`) without touching sys.path or another pair's modules."""
    package = f"v3ast_detectors_{hashlib.sha256(str(path.parent.resolve()).encode()).hexdigest()[:16]}"
    with _loading:
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
        holder = importlib.util.spec_from_file_location(package, path.parent / "__init__.py",
                                                        submodule_search_locations=[str(path.parent)])
        sys.modules[package] = importlib.util.module_from_spec(holder)
        spec = importlib.util.spec_from_file_location(f"{package}.{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module


_loading = threading.Lock()


def run_detector(path: Path, context: object) -> Verdict:
    name = path.stem
    try:
        result = load_detector(path).check(context)
    except Exception as error:
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        return Verdict(name, error=f"{path.name}: {last}")
    if not isinstance(result, Finding):
        return Verdict(name, error=f"{path.name}: check() returned {type(result).__name__}, expected Finding")
    return Verdict(name, finding=result)
