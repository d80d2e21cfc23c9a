"""Per-environment settings (config/<env>.ini) and the token from the environment."""

from __future__ import annotations

import configparser
import os
from dataclasses import dataclass
from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config"
ENVIRONMENTS = ("staging", "production")


@dataclass(frozen=True)
class RatesConfig:
    env: str
    host: str
    port: int
    timeout: float
    token: str


def load(env: str) -> RatesConfig:
    if env not in ENVIRONMENTS:
        raise ValueError(f"unknown environment {env!r} (expected one of {', '.join(ENVIRONMENTS)})")
    parser = configparser.ConfigParser()
    if not parser.read(CONFIG_DIR / f"{env}.ini"):
        raise FileNotFoundError(CONFIG_DIR / f"{env}.ini")
    section = parser["rates"]
    token = os.environ.get("RATES_API_TOKEN", "")
    if not token:
        raise RuntimeError("RATES_API_TOKEN is not set")
    return RatesConfig(env=env, host=section["host"], port=section.getint("port", 8443),
                       timeout=section.getfloat("timeout", 20.0), token=token)
