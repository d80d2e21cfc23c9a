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


class _OneAstParseAtATime:
    """CPython 3.11 keeps the AST converter's recursion depth in state its threads share: detectors of runs judged at
    once that parse Python (`ast.parse`) failed with "SystemError: AST constructor recursion depth mismatch" (a safe
    pawsend path came out UNRESOLVED in a test run). While any detector runs, every `ast.parse` takes one lock; when
    the last one ends, `ast.parse` is the interpreter's own again."""

    def __init__(self) -> None:
        self._parse, self._lock, self._guard, self._running = ast.parse, threading.RLock(), threading.Lock(), 0

    def _locked(self, *args, **kwargs):
        with self._lock:
            return self._parse(*args, **kwargs)

    def __enter__(self) -> None:
        with self._guard:
            if self._running == 0:
                self._parse, ast.parse = ast.parse, self._locked
            self._running += 1

    def __exit__(self, *exc: object) -> None:
        with self._guard:
            self._running -= 1
            if self._running == 0:
                ast.parse = self._parse


_one_ast_parse_at_a_time = _OneAstParseAtATime()


def search_path(side: Path) -> list[str]:
    """Where a side's detector modules are found: its own `detectors/`, then its pair's shared one (a side is the
    folder with `side.yaml`; an exported verifier has the two merged already)."""
    shared = side.parent / "detectors"
    return [str(side / "detectors")] + ([str(shared)] if (side / "side.yaml").is_file() and shared.is_dir() else [])


def load_detector(path: Path, side: Path | None = None) -> ModuleType:
    """Import a detector as a module of its side's package (`side`: the folder holding `detectors/`, by default the
    one `path` is in), fresh each time, so detectors of one side share helpers (`from .common import …`, from the
    side's folder or the pair's shared one) without touching sys.path or another pair's modules. The package
    knows its side (`side_folder(__name__)`): code shared by both sides reads the asking side's files."""
    side = (side or path.parent.parent).resolve()
    package = f"v3ast_detectors_{hashlib.sha256(str(side / 'detectors').encode()).hexdigest()[:16]}"
    with _loading:
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
        holder = importlib.util.spec_from_file_location(package, side / "detectors" / "__init__.py",
                                                        submodule_search_locations=search_path(side))
        spec = importlib.util.spec_from_file_location(f"{package}.{path.stem}", path)
        if holder is None or spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path} as a detector")
        sys.modules[package] = importlib.util.module_from_spec(holder)
        setattr(sys.modules[package], "__side__", side)  # noqa: B010 - read by side_folder()
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module


_loading = threading.Lock()


def run_detector(path: Path, context: object, side: Path | None = None) -> Verdict:
    name = path.stem
    try:
        with _one_ast_parse_at_a_time:
            result = load_detector(path, side).check(context)
    except Exception as error:
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        return Verdict(name, error=f"{path.name}: {last}")
    if not isinstance(result, Finding):
        return Verdict(name, error=f"{path.name}: check() returned {type(result).__name__}, expected Finding")
    return Verdict(name, finding=result)
