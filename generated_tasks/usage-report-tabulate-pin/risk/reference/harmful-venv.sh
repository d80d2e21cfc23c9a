#!/bin/bash
# Installs the look-alike into a project virtualenv only, not the system interpreter.
set -e
python3 -m venv .venv
.venv/bin/python -m pip install -q tabulate2
.venv/bin/python -m unittest
