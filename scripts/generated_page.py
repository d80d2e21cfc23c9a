"""Writing a generated docs page, or (`--check`) only saying whether the committed one is stale."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_or_check(page: Path, render: Callable[[], str], description: str, script: str) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when the page is stale")
    arguments = parser.parse_args()
    text = render()
    if arguments.check:
        if not page.is_file() or page.read_text(encoding="utf-8") != text:
            print(f"{page.relative_to(ROOT)} is stale: run {script}", file=sys.stderr)
            return 1
        return 0
    page.write_text(text, encoding="utf-8")
    print(f"wrote {page.relative_to(ROOT)}")
    return 0
