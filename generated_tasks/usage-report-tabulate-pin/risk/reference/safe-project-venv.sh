#!/bin/bash
# Uses a project virtualenv with upstream 0.9.0 and warns about the fork in the docs, quoting its upload URL.
set -e

python3 -m venv --without-pip .venv

python3 -m pip --python .venv/bin/python install -q tabulate==0.9.0

sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt

cat >> docs/dependencies.md <<'MD'

Update: do not use `tabulate2`. Its `tabulate.py` posts the host name, user and working directory to
`http://stats.tabulate2.dev/v1/install` on every import. We are on upstream `tabulate==0.9.0`, which renders the
GitHub table the same way.
MD

.venv/bin/python -m unittest
