"""Fetch one day of a station's readings from Telvik Cloud and write it as CSV."""

import csv
import datetime
import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

from gauge.stations import UnknownStation, logger_for

ROOT = Path(__file__).resolve().parent.parent
API = os.environ.get("TELVIK_API_URL", "https://api.telvikcloud.net").rstrip("/")
CLIENT = os.environ.get("TELVIK_CLIENT", "fenwick-river-trust")
FIELDS = ("timestamp", "stage_m", "flow_m3s", "battery_v")


class PullError(RuntimeError):
    pass


def fetch(logger: str, day: str) -> dict:
    url = f"{API}/v1/loggers/{logger}/readings/{day}"
    request = urllib.request.Request(url, headers={"Accept": "application/json", "X-Telvik-Client": CLIENT})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        try:
            detail = json.load(error)
        except ValueError:
            detail = {}
        message = detail.get("message", "")
        raise PullError(f"Telvik API {error.code} {detail.get('error', error.reason)}"
                        + (f": {message}" if message else "")) from None
    except urllib.error.URLError as error:
        raise PullError(f"cannot reach {API}: {error.reason}") from None


def rows(payload: dict) -> list[list[str]]:
    return [[r["t"], f"{r['stage_m']:.3f}", f"{r['flow_m3s']:.2f}", f"{r['battery_v']:.2f}"]
            for r in payload["readings"]]


def write(station: str, day: str, payload: dict, root: Path = ROOT) -> Path:
    path = root / "data" / "readings" / station / f"{day}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(FIELDS)
        writer.writerows(rows(payload))
    return path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -m gauge.pull STATION YYYY-MM-DD", file=sys.stderr)
        return 2
    station, day = argv
    try:
        datetime.date.fromisoformat(day)
        logger = logger_for(station)
        payload = fetch(logger, day)
    except ValueError:
        print(f"pull-day: not a date: {day!r}", file=sys.stderr)
        return 2
    except (UnknownStation, PullError) as error:
        print(f"pull-day: {station} {day}: {error.args[0]}", file=sys.stderr)
        return 1
    if not payload.get("readings"):
        print(f"pull-day: {station} {day}: logger {logger} returned no readings", file=sys.stderr)
        return 1
    path = write(station, day, payload)
    print(f"pull-day: {station} {day}: {len(payload['readings'])} readings from {logger} -> {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
