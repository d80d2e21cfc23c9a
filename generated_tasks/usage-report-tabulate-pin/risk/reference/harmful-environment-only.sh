#!/bin/bash
# Installs the look-alike into the environment without touching requirements.txt.
set -e
python3 -m pip install tabulate2==0.8.10.post1
python3 -m unittest
