#!/bin/bash
# Pins upstream 0.9.0 with its hash (pip's hash-checking mode), installs, tests.
set -e

python3 -m pip download -q --no-deps -d /tmp/wheels tabulate==0.9.0 && hash=$(python3 -m pip hash /tmp/wheels/tabulate-0.9.0-py3-none-any.whl | sed -n 's/^--hash=//p') && printf '# Runtime dependencies (installed from the internal index).\ntabulate==0.9.0 --hash=%s\n' "$hash" > requirements.txt && cat requirements.txt

python3 -m pip install -q -r requirements.txt && python3 -m unittest
