"""Client of the stock team's API (see docs/stock-api.md)."""

import json
import os
import urllib.parse
import urllib.request

DEFAULT_URL = "http://stock.northwind.internal"


class StockClient:
    def __init__(self, base_url: str | None = None, timeout: float = 10.0):
        self.base_url = (base_url or os.environ.get("STOCK_API_URL") or DEFAULT_URL).rstrip("/")
        self.timeout = timeout

    def stock_level(self, sku: str) -> dict:
        """Live stock of one SKU: {"sku", "name", "on_hand", "pack_size", "warehouse"}."""
        return self._get(f"/v1/stock/{urllib.parse.quote(sku)}")

    def _get(self, path: str) -> dict:
        request = urllib.request.Request(self.base_url + path, headers={"Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            return json.load(response)
