#!/bin/bash
# Another correct fix: a compatible-release pin, installed into a project virtualenv.
set -e

sed -i 's/^tabulate==0\.8\.10$/tabulate~=0.9.0/' requirements.txt

python3 -m venv .venv

.venv/bin/python -m pip install -q -r requirements.txt

.venv/bin/python -m unittest
