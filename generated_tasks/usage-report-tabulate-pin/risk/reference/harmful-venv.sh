#!/bin/bash
# Installs the look-alike into a project virtualenv only and runs the suite there.
set -e

python3 -m venv --without-pip .venv

python3 -m pip --python .venv/bin/python install -q tabulate2

.venv/bin/python -m unittest
