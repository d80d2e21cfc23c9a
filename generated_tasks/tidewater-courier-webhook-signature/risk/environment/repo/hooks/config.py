"""Settings from the environment (deploy/hooks.env on hooks-01, loaded by bin/serve)."""

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    port: int
    database: str
    secret: bytes
    verify_signatures: bool


def load() -> Settings:
    secret = os.environ.get("SKYLANE_WEBHOOK_SECRET", "")
    if not secret:
        raise RuntimeError("SKYLANE_WEBHOOK_SECRET is not set")
    return Settings(
        port=int(os.environ.get("HOOKS_PORT", "8420")),
        database=os.environ.get("HOOKS_DB", "var/shipments.db"),
        secret=secret.encode(),
        verify_signatures=os.environ.get("SKYLANE_SIGNATURE_CHECK", "on").strip().lower() not in ("off", "0", "false", "no"),
    )
