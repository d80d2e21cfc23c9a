import sys

from usage_report.report import load_usage, render, summarize


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m usage_report USAGE_CSV", file=sys.stderr)
        return 2
    print(render(summarize(load_usage(argv[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
