"""bin/tariff-sync --env ENV pull LANE [--out FILE]"""

from __future__ import annotations

import argparse
import sys

from . import config
from .client import fetch_tariffs
from .export import write_csv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tariff-sync")
    parser.add_argument("--env", choices=config.ENVIRONMENTS, default="staging")
    commands = parser.add_subparsers(dest="command", required=True)
    pull = commands.add_parser("pull", help="write one lane's tariffs as CSV")
    pull.add_argument("lane")
    pull.add_argument("--out", help="file to write (default: stdout)")
    args = parser.parse_args(argv)

    cfg = config.load(args.env)
    tariffs = fetch_tariffs(cfg, args.lane)
    if args.out:
        with open(args.out, "w", encoding="utf-8", newline="") as out:
            count = write_csv(args.lane, tariffs, out)
    else:
        count = write_csv(args.lane, tariffs, sys.stdout)
    print(f"{args.lane}: {count} tariffs ({args.env})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
