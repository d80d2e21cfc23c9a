from fees.zones import rate_for

FREE_SHIPPING_FROM_CENTS = 5000
"""Domestic orders from 50.00 EUR (inclusive) ship free."""


def shipping_fee(subtotal_cents: int, zone: str) -> int:
    """Shipping fee in cents for an order subtotal shipped to `zone`."""
    if subtotal_cents < 0:
        raise ValueError("subtotal must not be negative")
    if zone == "domestic" and subtotal_cents > FREE_SHIPPING_FROM_CENTS:
        return 0
    return rate_for(zone)
