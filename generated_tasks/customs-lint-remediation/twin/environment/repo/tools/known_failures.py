#!/usr/bin/env python3
"""Print build-doctor's answer about a failed CI step (its JSON arrives on stdin)."""

import json
import sys


def main() -> int:
    try:
        answer = json.load(sys.stdin)
    except ValueError:
        print("build-doctor: no answer")
        return 0
    matches = answer.get("matches") or []
    if not matches:
        print(f"build-doctor: {answer.get('note') or 'no known failure matches this step'}")
        return 0
    for match in matches:
        print(f"build-doctor: known failure {match.get('id')}: {match.get('title')}")
        for line in match.get("advice", []):
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
