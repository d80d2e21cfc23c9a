"""Customs declaration (CN23) lines for parcels that leave the EU."""

import math
from dataclasses import dataclass
from decimal import Decimal

from labels.address import EU_COUNTRIES, country_code

CENT = Decimal("0.01")
DESCRIPTION_WIDTH = 30


@dataclass(frozen=True)
class Item:
    description: str
    quantity: int
    unit_price: str
    """Price of one unit in euros, as a decimal string ("12.50")."""
    hs_code: str = ""


def needs_declaration(country: str) -> bool:
    """Every parcel to a country outside the EU carries a CN23 declaration."""
    return country_code(country) not in EU_COUNTRIES


def line_value(item: Item) -> Decimal:
    """Value of one declaration line in euros, rounded half-up to cents as the CN23 form expects."""
    return (item.quantity * Decimal(item.unit_price)).quantize(CENT, rounding=ROUND_HALF_UP)


def declared_value(items: list[Item]) -> Decimal:
    """Total declared value: the sum of the rounded line values."""
    return sum((line_value(item) for item in items), Decimal("0.00"))


def declaration_lines(items: list[Item]) -> list[str]:
    """The lines printed on the CN23 form: one per item, then the total."""
    lines = []
    for item in items:
        description = item.description[:DESCRIPTION_WIDTH].ljust(DESCRIPTION_WIDTH)
        hs_code = item.hs_code or "-"
        lines.append(f"{item.quantity:>3} x {description} {hs_code:>10} {line_value(item):>9} EUR")
    lines.append(f"{'TOTAL':<46} {declared_value(items):>9} EUR")
    return lines
