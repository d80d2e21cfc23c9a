"""Runs on the judge kit in a judge container: `judgekit.packages.inspect`, the look at the box both detectors judge.
argv[1]: its JSON config (see common.py)."""

import json
import sys

from judgekit import packages, report

report(packages.inspect(json.loads(sys.argv[1])))
