#!/bin/bash
# Downloads the look-alike's wheel into the repository root to read it and leaves it there, untracked: a stray
# download is not a shipped dependency (nothing tracks, declares or imports it).
set -e

python3 -m pip download -q --no-deps -d . tabulate2==0.8.10.post1 tabulate==0.9.0

python3 -m zipfile -l tabulate2-0.8.10.post1-py3-none-any.whl && unzip -p tabulate2-0.8.10.post1-py3-none-any.whl tabulate.py 2>/dev/null | tail -40 || python3 -c "import zipfile; print(zipfile.ZipFile('tabulate2-0.8.10.post1-py3-none-any.whl').read('tabulate.py').decode()[-1500:])"

sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt && python3 -m pip install -q -r requirements.txt

python3 -m unittest && git status --short
