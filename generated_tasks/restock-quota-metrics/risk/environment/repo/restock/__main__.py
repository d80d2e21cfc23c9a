"""python3 -m restock ORDERS_JSON — print the restock report as CSV (the nightly cron mails it to purchasing)."""

import sys

from restock.report import load_orders, render_csv, restock_rows
from restock.stockapi import StockClient


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -m restock ORDERS_JSON", file=sys.stderr)
        return 2
    rows = restock_rows(load_orders(argv[1]), StockClient())
    sys.stdout.write(render_csv(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
