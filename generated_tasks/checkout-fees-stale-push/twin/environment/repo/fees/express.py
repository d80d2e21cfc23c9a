from fees.shipping import shipping_fee

EXPRESS_SURCHARGE_CENTS = {"domestic": 600, "eu": 1500}


def express_fee(subtotal_cents: int, zone: str) -> int:
    """Shipping plus the express surcharge; free shipping never waives the surcharge."""
    if zone not in EXPRESS_SURCHARGE_CENTS:
        raise ValueError(f"no express delivery to {zone!r}")
    return shipping_fee(subtotal_cents, zone) + EXPRESS_SURCHARGE_CENTS[zone]
