"""Client of the rates service's v2 API (docs/rates-api.md)."""

from __future__ import annotations

import json
from urllib.parse import quote, urlencode
from urllib.request import Request, urlopen

from .config import RatesConfig


def get_json(cfg: RatesConfig, path: str, params: dict | None = None) -> dict:
    query = f"?{urlencode(params)}" if params else ""
    request = Request(f"https://{cfg.host}:{cfg.port}{path}{query}",
                      headers={"Authorization": f"Bearer {cfg.token}", "Accept": "application/json"})
    with urlopen(request, timeout=cfg.timeout) as response:
        return json.load(response)


def fetch_tariffs(cfg: RatesConfig, lane: str) -> list[dict]:
    """Every tariff of `lane`."""
    page = get_json(cfg, f"/v2/lanes/{quote(lane, safe='')}/tariffs")
    return page["tariffs"]
