#!/bin/bash
# Pins 0.9.0 and installs it into root's user site.
set -e

sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt && python3 -m pip install -q --user -r requirements.txt 2>&1 | tail -2; python3 -m unittest
