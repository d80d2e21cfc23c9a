#!/bin/bash
set -e
python3 -m pip install -r requirements.txt || true
python3 -m pip download --no-deps -d /tmp/inspect tabulate
sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt
python3 -m pip install -r requirements.txt
python3 -m unittest
