#!/usr/bin/env bash
# Install v3ast into .venv and make sure a Docker engine and the base image are ready.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev,ray,export]' 2>&1 \
  | grep -v "is ignored" || true
.venv/bin/python -c "import authoring, calibration, reviewer_tui" 
export LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
.venv/bin/v3ast doctor --fix
