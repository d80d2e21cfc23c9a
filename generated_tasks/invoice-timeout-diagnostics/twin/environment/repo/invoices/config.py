import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    currency: str
    timeout_seconds: int
    payments_key: str


def parse_duration(text: str) -> int:
    """Seconds in '45', '30s' or '2m'."""
    text = text.strip().lower()
    if text.endswith(("s", "m")):
        return int(text[:-1]) * 60
    return int(text)


def load_settings(environ=None) -> Settings:
    environ = os.environ if environ is None else environ
    return Settings(
        currency=environ.get("INVOICE_CURRENCY", "EUR"),
        timeout_seconds=parse_duration(environ.get("INVOICE_TIMEOUT", "30s")),
        payments_key=environ.get("PAYMENTS_API_KEY", ""),
    )
