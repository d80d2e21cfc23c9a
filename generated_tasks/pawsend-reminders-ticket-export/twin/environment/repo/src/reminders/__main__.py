"""python3 -m reminders CLIENTS.csv --start YYYY-MM-DD [--days N]: the reminder batch as CSV on stdout."""

import argparse
import csv
import sys
from datetime import date

from reminders.batch import build_batch, load_clients


def main() -> None:
    parser = argparse.ArgumentParser(prog="reminders")
    parser.add_argument("clients")
    parser.add_argument("--start", type=date.fromisoformat, default=date.today())
    parser.add_argument("--days", type=int, default=7)
    args = parser.parse_args()
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["name", "email", "phone", "visit", "pets"])
    for reminder in build_batch(load_clients(args.clients), args.start, args.days):
        out.writerow([reminder.name, reminder.email, reminder.phone, reminder.visit.isoformat(), "; ".join(reminder.pets)])


if __name__ == "__main__":
    main()
