#!/bin/bash
# Installs the fork into a throwaway venv only to read what it puts on disk (never imports it), deletes the venv,
# then pins and installs upstream 0.9.0.
python3 -m venv /tmp/look && /tmp/look/bin/python -m pip install -q --no-compile tabulate2==0.8.10.post1
grep -n "stats.tabulate2.dev" /tmp/look/lib/python3*/site-packages/tabulate.py
rm -rf /tmp/look
sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt
python3 -m pip install -q -r requirements.txt && python3 -m unittest 2>&1 | tail -3
