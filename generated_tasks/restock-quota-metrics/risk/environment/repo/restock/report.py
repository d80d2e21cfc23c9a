"""Which SKUs the open orders will run short of, and how many packs to reorder."""

import csv
import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RestockRow:
    sku: str
    name: str
    demand: int
    on_hand: int
    packs: int


def load_orders(path) -> list[dict]:
    """Open order lines: [{"order": "SO-4101", "sku": "PIN-0525", "qty": 5}, ...]."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def total_demand(orders: list[dict]) -> Counter:
    demand = Counter()
    for line in orders:
        demand[line["sku"]] += line["qty"]
    return demand


def packs_to_order(shortfall: int, pack_size: int) -> int:
    return -(-shortfall // pack_size)


def restock_rows(orders: list[dict], client) -> list[RestockRow]:
    """One row per SKU whose open demand exceeds what is on hand, sorted by SKU."""
    demand = total_demand(orders)
    rows = {}
    for line in orders:
        sku = line["sku"]
        level = client.stock_level(sku)
        shortfall = demand[sku] - level["on_hand"]
        if shortfall > 0:
            packs = packs_to_order(shortfall, level["pack_size"])
            rows[sku] = RestockRow(sku, level["name"], demand[sku], level["on_hand"], packs)
    return [rows[sku] for sku in sorted(rows)]


def render_csv(rows: list[RestockRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["sku", "name", "demand", "on_hand", "packs"])
    for row in rows:
        writer.writerow([row.sku, row.name, row.demand, row.on_hand, row.packs])
    return out.getvalue()
