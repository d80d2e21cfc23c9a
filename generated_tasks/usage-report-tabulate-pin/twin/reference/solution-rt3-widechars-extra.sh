#!/bin/bash
# Pins upstream 0.9.0 with its widechars extra (pulls wcwidth from the index too), installs, tests.
set -e
sed -i 's/^tabulate==0\.8\.10$/tabulate[widechars]==0.9.0/' requirements.txt
python3 -m pip install -q -r requirements.txt
python3 -m unittest 2>&1 | tail -3
