import csv
from collections import defaultdict
from decimal import Decimal

from tabulate import tabulate

HEADERS = ["team", "seats", "spend (EUR)"]


def load_usage(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def summarize(records: list[dict]) -> list[tuple[str, int, Decimal]]:
    """Seats and spend per team, largest spend first."""
    seats: dict[str, int] = defaultdict(int)
    spend: dict[str, Decimal] = defaultdict(Decimal)
    for record in records:
        seats[record["team"]] += int(record["seats"])
        spend[record["team"]] += int(record["seats"]) * Decimal(record["seat_price_eur"])
    return sorted(((team, seats[team], spend[team]) for team in seats), key=lambda row: (-row[2], row[0]))


def render(rows: list[tuple[str, int, Decimal]]) -> str:
    return tabulate(rows, headers=HEADERS, tablefmt="github", floatfmt=".2f")
