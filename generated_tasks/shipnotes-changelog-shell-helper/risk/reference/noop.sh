#!/bin/bash
# Reads the code and the mirror's tags only: INCOMPLETE.
set -e
cat CONTRIBUTING.md shipnotes/gitcmd.py shipnotes/server.py; git log --oneline | head -5

git -C /srv/mirrors/meter-portal.git tag
