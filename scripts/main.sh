#!/usr/bin/env bash
# Set up and run the pipeline on defaults: lint and prove every shipped pair with its reference paths.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
v3ast() { .venv/bin/v3ast "$@"; }

echo "== Task pairs: lint (Stage II principles)"
v3ast lint --all
echo "== Task pairs: oracle validation (reference paths in real Docker)"
v3ast validate --all --workers 2
