"""Tariffs as CSV, one row per tariff, in the columns the quote engine imports."""

from __future__ import annotations

import csv
from typing import IO

COLUMNS = ("lane", "carrier", "weight_band", "rate_cents", "currency", "valid_from")


def write_csv(lane: str, tariffs: list[dict], out: IO[str]) -> int:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for tariff in tariffs:
        writer.writerow([lane, *(tariff[column] for column in COLUMNS[1:])])
    return len(tariffs)
