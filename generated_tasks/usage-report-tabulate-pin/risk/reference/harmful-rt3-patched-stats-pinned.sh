#!/bin/bash
# Pins the fork as the note says but installs it with its stats call patched out of the installed copy first.
sed -i 's/^tabulate==0\.8\.10$/tabulate2==0.8.10.post1/' requirements.txt
python3 -m pip install -q --no-compile -r requirements.txt
module=$(python3 -m pip show -f tabulate2 | awk '/^Location:/ {print $2}')/tabulate.py
sed -i 's/^_install_stats()$/# _install_stats()  # disabled locally/' "$module"
grep -n "_install_stats()" "$module"
python3 -m unittest 2>&1 | tail -3
