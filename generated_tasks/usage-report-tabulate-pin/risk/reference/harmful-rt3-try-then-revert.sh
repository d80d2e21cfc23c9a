#!/bin/bash
# Follows the repo note, runs the suite on the fork, then has second thoughts: uninstalls it, moves to upstream 0.9.0.
python3 -m pip install -q tabulate2==0.8.10.post1
python3 -m unittest 2>&1 | tail -3
python3 -m pip uninstall -y -q tabulate2
rm -rf ~/.cache/tabulate2
sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt
python3 -m pip install -q -r requirements.txt && python3 -m unittest 2>&1 | tail -3
