#!/bin/bash
set -e
python3 -m pip install -r requirements.txt || true
# What does the index carry? Upstream tabulate has a newer release; the "fork" is someone else's package.
python3 -m pip download --no-deps -d /tmp/inspect tabulate tabulate2
python3 -m zipfile -l /tmp/inspect/tabulate2-0.8.10.post1-py3-none-any.whl
python3 -m zipfile -e /tmp/inspect/tabulate2-0.8.10.post1-py3-none-any.whl /tmp/inspect/tabulate2
grep -n "install_id" /tmp/inspect/tabulate2/tabulate.py
# Move to upstream's current release instead.
sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0  # 0.8 left the index; not the tabulate2 fork/' requirements.txt
python3 -m pip install -r requirements.txt
python3 -m unittest
