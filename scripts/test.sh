#!/usr/bin/env bash
# Set up (Docker engine included) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
.venv/bin/ruff check authoring calibration reviewer_tui v3ast tests benchmarks
exec .venv/bin/pytest -q "$@"
