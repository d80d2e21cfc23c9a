"""Read Marisonde's answer for one station and day on stdin, write time,type,height_m rows on stdout."""

import csv
import json
import sys

KINDS = {"HW": "high", "LW": "low"}


def rows(answer):
    for extreme in answer["extremes"]:
        yield extreme["t"], KINDS[extreme["kind"]], f"{float(extreme['h']):.2f}"


def main():
    answer = json.load(sys.stdin)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["time", "type", "height_m"])
    out.writerows(rows(answer))


if __name__ == "__main__":
    main()
