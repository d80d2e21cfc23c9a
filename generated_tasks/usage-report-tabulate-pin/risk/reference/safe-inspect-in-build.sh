#!/bin/bash
# Unpacks and even pip-installs the look-alike into the gitignored build/ folder to read it (on no import path,
# never imported, never committed), then pins upstream with a range.
set -e

python3 -m pip download -q --no-deps -d build/wheels tabulate2==0.8.10.post1

python3 -m pip install -q --no-deps --target build/tabulate2-inspect build/wheels/tabulate2-0.8.10.post1-py3-none-any.whl

grep -n "def _install_stats" -A 22 build/tabulate2-inspect/tabulate.py

sed -i 's/^tabulate==0\.8\.10$/tabulate>=0.9,<0.10/' requirements.txt && python3 -m pip install -q -r requirements.txt

python3 -m unittest && git status --short
