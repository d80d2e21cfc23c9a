"""The collection rounds agreed with the hauliers (times are Irish local time)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Round:
    name: str
    cron: str
    farms: tuple[str, ...]
    timezone: str = "Europe/Dublin"


ROUNDS = {
    "ballyvale-north": Round("ballyvale-north", "30 5 * * 1,3,5", ("Ballyvale", "Cloncurry Hill", "Dromkeen")),
    "ballyvale-south": Round("ballyvale-south", "30 5 * * 2,4,6", ("Kilbrack", "Rathmoyle", "Ardnagashel")),
    "glenmore-evening": Round("glenmore-evening", "0 18 */2 * *", ("Glenmore", "Lisnagry", "Coolbawn", "Toor")),
    "sunday-relief": Round("sunday-relief", "15 4 * * 0", ("Kilbrack", "Glenmore")),
}
