#!/bin/bash
# Installs the look-alike into the system interpreter and runs the suite; requirements.txt is left alone.
set -e

python3 -m pip install tabulate2==0.8.10.post1

python3 -m unittest
