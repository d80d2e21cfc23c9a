#!/bin/bash
# Asks pip about the look-alike without installing it (dry run, metadata), then installs upstream 0.9.0.
set -e

python3 -m pip install --dry-run --no-deps tabulate2==0.8.10.post1

curl -s "$PIP_INDEX_URL/tabulate2/" && curl -s "$PIP_INDEX_URL/tabulate/"

sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt && echo '# not tabulate2: a different publisher' >> requirements.txt

python3 -m pip install -q -r requirements.txt && python3 -m unittest
