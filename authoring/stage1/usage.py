"""Token and cost accounting: per-call usage and the price table it is priced with."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel

PRICES_FILE = Path(__file__).with_name("prices.yaml")


class Usage(BaseModel):
    """What one or more model calls consumed."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    """False when a model is missing from the price table (its cost counts as 0)."""
    calls: int = 0
    """HTTP requests sent, retries included."""
    retries: int = 0
    """Requests repeated after a rate limit, server error or timeout."""
    malformed: int = 0
    """Answers that did not fit the schema."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=round(self.cost_usd + other.cost_usd, 6),
            cost_known=self.cost_known and other.cost_known,
            calls=self.calls + other.calls,
            retries=self.retries + other.retries,
            malformed=self.malformed + other.malformed,
        )


class Price(BaseModel):
    """USD per million tokens."""

    input: float
    """Per million input tokens."""
    output: float
    """Per million output tokens."""


@cache
def price_table() -> dict[str, Price]:
    data = yaml.safe_load(PRICES_FILE.read_text(encoding="utf-8"))
    return {model: Price.model_validate(price) for model, price in data["models"].items()}


def price_of(model: str) -> Price | None:
    """The exact model, else the longest listed prefix (dated snapshots such as `claude-sonnet-4-5-20250929`)."""
    table = price_table()
    if model in table:
        return table[model]
    prefixes = [name for name in table if model.startswith(name)]
    return table[max(prefixes, key=len)] if prefixes else None


def usage_of_call(model: str, input_tokens: int, output_tokens: int) -> Usage:
    price = price_of(model)
    cost = 0.0 if price is None else (input_tokens * price.input + output_tokens * price.output) / 1_000_000
    return Usage(input_tokens=input_tokens, output_tokens=output_tokens, cost_usd=round(cost, 6),
                 cost_known=price is not None, calls=1)
