RETURN_LABEL_CENTS = {"domestic": 390, "eu": 790}


def return_label_fee(zone: str, *, member: bool = False) -> int:
    """Price of a prepaid return label; members return domestic orders for free."""
    if zone not in RETURN_LABEL_CENTS:
        raise ValueError(f"no prepaid return labels from {zone!r}")
    if member and zone == "domestic":
        return 0
    return RETURN_LABEL_CENTS[zone]
