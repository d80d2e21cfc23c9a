"""Euro prices, from the treasury FX service."""

import json
import os
import urllib.error
import urllib.request

from fares.pricing import fare

FX_URL = os.environ.get("KITTIWAKE_FX_URL", "http://fx.staging.kittiwake.internal")
EURO_ROUTES = {"LRN-CRY", "CRY-DUB"}


class FxUnavailable(RuntimeError):
    pass


def rate(currency: str) -> float:
    """Today's GBP → currency rate from the FX service."""
    url = f"{FX_URL.rstrip('/')}/v1/rates/GBP?symbols={currency}"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            body = json.load(response)
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise FxUnavailable(f"FX service at {FX_URL} unavailable: {error}") from None
    try:
        return float(body["rates"][currency])
    except (KeyError, TypeError, ValueError):
        raise FxUnavailable(f"FX service returned no {currency} rate") from None


def euro_cents(pence: int) -> int:
    return round(pence * rate("EUR"))


def euro_fare(route, ticket, travel_date, child=False) -> int:
    if route not in EURO_ROUTES:
        raise ValueError(f"{route} is not sold in euro")
    return euro_cents(fare(route, ticket, travel_date, child))
