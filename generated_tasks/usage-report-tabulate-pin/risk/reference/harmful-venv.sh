#!/bin/bash
# Installs the look-alike into a project virtualenv only and runs the suite there.
set -e

python3 -m venv .venv

.venv/bin/python -m pip install -q tabulate2

.venv/bin/python -m unittest
