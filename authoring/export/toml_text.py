"""TOML text for the plain data a task.toml holds: tables, arrays of tables, strings, numbers, booleans, lists."""

from __future__ import annotations

import json
from typing import Any


def dumps(data: dict[str, Any]) -> str:
    return "\n".join(_table(data, [])).strip() + "\n"


def _table(data: dict[str, Any], path: list[str]) -> list[str]:
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not _nested(v)]
    for key, value in data.items():
        if isinstance(value, dict):
            lines += ["", f"[{'.'.join(_key(p) for p in [*path, key])}]", *_table(value, [*path, key])]
        elif _nested(value):
            for item in value:
                lines += ["", f"[[{'.'.join(_key(p) for p in [*path, key])}]]", *_table(item, [*path, key])]
    return lines


def _nested(value: Any) -> bool:
    return isinstance(value, dict) or (
        isinstance(value, list) and bool(value) and all(isinstance(i, dict) for i in value))


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")
