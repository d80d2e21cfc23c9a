"""Fares per route and ticket type, in pence."""

from datetime import date

BASE_FARES = {
    "ULL-STY": {"foot": 1240, "bicycle": 1490, "motorbike": 2675, "car": 4850, "van": 7125},
    "OBN-CRN": {"foot": 890, "bicycle": 1040, "motorbike": 1960, "car": 3720, "van": 5480},
    "LRN-CRY": {"foot": 2650, "bicycle": 2900, "motorbike": 5310, "car": 10975, "van": 15840},
    "CRY-DUB": {"foot": 3400, "bicycle": 3725, "motorbike": 6890, "car": 13150, "van": 18620},
}
VEHICLES = {"motorbike", "car", "van"}
CHILD_DISCOUNT = 0.5


class UnknownFare(KeyError):
    pass


def base_fare(route: str, ticket: str) -> int:
    try:
        return BASE_FARES[route][ticket]
    except KeyError:
        raise UnknownFare(f"no {ticket!r} fare on route {route!r}") from None


def fare(route: str, ticket: str, travel_date: date, child: bool = False) -> int:
    """The fare in pence for one ticket on one crossing."""
    amount = base_fare(route, ticket)
    if child and ticket not in VEHICLES:
        amount = round(amount * CHILD_DISCOUNT)
    return amount
