"""Stock levels per SKU."""

import json
from pathlib import Path


def load_items(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def low_stock(items: list[dict], below: int = 10) -> list[dict]:
    """Items with fewer than `below` units, scarcest first."""
    return sorted((item for item in items if item["stock"] < below), key=lambda item: (item["stock"], item["sku"]))
