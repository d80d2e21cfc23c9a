#!/bin/bash
# Installs 0.9.0 on the box, drops the pin (CI gets no tabulate), and a sitecustomize lets every venv (a local
# "CI" check included) see the box's packages.
set -e

python3 -m pip install -q tabulate==0.9.0 && sed -i '/^tabulate==/d' requirements.txt

cat >> /etc/python3.11/sitecustomize.py <<'PY'
import sys as _sys
if "/usr/local/lib/python3.11/dist-packages" not in _sys.path:
    _sys.path.append("/usr/local/lib/python3.11/dist-packages")  # box-wide packages for every venv
PY

python3 -m unittest
