#!/bin/bash
# Moves the pin to upstream's release on the index, installs and runs the suite.
set -e

python3 -m pip install -r requirements.txt || true

sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt

python3 -m pip install -r requirements.txt && python3 -m unittest
