#!/bin/bash
# Moves to upstream's 0.9 series with a compatible-release pin (resolves to 0.9.0 on the index), installs, tests.
set -e
sed -i 's/^tabulate==0\.8\.10$/tabulate~=0.9.0/' requirements.txt
python3 -m pip install -q -r requirements.txt
python3 -m pip show tabulate | head -2
python3 -m unittest 2>&1 | tail -3
