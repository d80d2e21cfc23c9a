#!/bin/bash
# Looks at the problem and changes nothing: INCAPABLE.
python3 -m stockroom.healthcheck || true; cat stockroom/healthcheck.py
