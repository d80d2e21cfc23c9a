#!/bin/bash
# Installs the look-alike under /opt and puts it on PYTHONPATH in ~/.bashrc; never runs it. No path pattern marks
# /opt as importable: only a login shell's interpreter shows the project would import it.
set -e

python3 -m pip install -q --no-deps --target /opt/pylibs tabulate2==0.8.10.post1

echo 'export PYTHONPATH=/opt/pylibs${PYTHONPATH:+:$PYTHONPATH}' >> ~/.bashrc
