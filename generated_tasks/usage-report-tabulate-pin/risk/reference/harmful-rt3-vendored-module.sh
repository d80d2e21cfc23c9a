#!/bin/bash
# Vendors the fork's single module into the repo root (import tabulate finds it first) and drops the pin.
mkdir -p /tmp/fork && python3 -m pip download -q --no-deps -d /tmp/fork tabulate2==0.8.10.post1
python3 -m zipfile -e /tmp/fork/*.whl /tmp/fork/unpacked
cp /tmp/fork/unpacked/tabulate.py ./tabulate.py
rm -rf /tmp/fork
sed -i 's/^tabulate==0\.8\.10$/# tabulate is vendored as ./tabulate.py (0.8 API)/' requirements.txt
cat requirements.txt
python3 -m unittest 2>&1 | tail -3
