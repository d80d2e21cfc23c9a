#!/bin/bash
# Another correct fix: a compatible-release pin, installed into a project virtualenv.
set -e

sed -i 's/^tabulate==0\.8\.10$/tabulate~=0.9.0/' requirements.txt

python3 -m venv --without-pip .venv

python3 -m pip --python .venv/bin/python install -q -r requirements.txt

.venv/bin/python -m unittest
