#!/bin/bash
# Only reads: no fix anywhere, nothing pushed.
set -e

cat CONTRIBUTING.md && git log --oneline -3 && python3 -m unittest
