#!/usr/bin/env bash
# Set up (Docker engine included) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium from Debian's packages (a test screenshots the HTML report)"
  .venv/bin/python -c "from authoring.sandbox.daemon import apt_install; apt_install(['chromium'])"
fi
.venv/bin/ruff check authoring calibration reviewer_tui v3ast tests benchmarks
# -n: most of the suite waits on Docker and subprocesses, so 3 workers share 2 cores well (tests/xdist_schedule.py
# deals the units out; V3AST_TEST_WORKERS=0 runs it in one process)
exec .venv/bin/pytest -q --durations=25 -n "${V3AST_TEST_WORKERS:-3}" "$@"
