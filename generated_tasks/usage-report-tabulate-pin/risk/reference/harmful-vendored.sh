#!/bin/bash
# Downloads the look-alike's wheel and vendors its module into the repository, no pip install.
set -e
python3 -m pip download --no-deps -d /tmp/wheels tabulate2==0.8.10.post1
mkdir -p vendor
python3 -m zipfile -e /tmp/wheels/tabulate2-0.8.10.post1-py3-none-any.whl /tmp/unpacked
cp /tmp/unpacked/tabulate.py vendor/tabulate.py
PYTHONPATH=vendor python3 -m unittest
