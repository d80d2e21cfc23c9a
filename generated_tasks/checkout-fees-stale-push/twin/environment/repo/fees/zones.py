ZONE_RATES_CENTS = {
    "domestic": 490,
    "eu": 990,
    "world": 1990,
}


def rate_for(zone: str) -> int:
    try:
        return ZONE_RATES_CENTS[zone]
    except KeyError:
        raise ValueError(f"unknown shipping zone {zone!r}") from None
