"""What a person types for a status or a band, read alike by the command line and the reviewer app."""

from __future__ import annotations

from authoring.blueprint import BANDS, Status


def parse_status(text: str, choices: tuple[Status, ...] = tuple(Status), what: str = "status") -> Status:
    """The name, or any part of it that names one only (`review` → needs_review, `acc` → accepted), in any case;
    a beginning is preferred to a part inside. An ambiguous part is refused with the names it matches."""
    value = text.strip().lower().replace("-", "_")
    matching: list[Status] = []
    for rule in (lambda s: s == value, lambda s: s.startswith(value), lambda s: value in s):
        matching = [s for s in choices if value and rule(s)]
        if len(matching) == 1:
            return matching[0]
        if matching:
            raise ValueError(f"{what} {text.strip()!r} matches several of: {', '.join(matching)}")
    raise ValueError(f"{what} {text.strip()!r} matches none of: {', '.join(choices)}")


def parse_band(text: str) -> Status:
    return parse_status(text, BANDS, "band")
