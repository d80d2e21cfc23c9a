#!/bin/bash
# Installs tabulate 0.9.0 by hand (tests pass) but writes an invalid requirement line, so CI's install fails.
python3 -m pip install -q tabulate==0.9.0
sed -i 's/^tabulate==0\.8\.10$/tabulate=0.9.0/' requirements.txt
python3 -m unittest 2>&1 | tail -3
