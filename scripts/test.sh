#!/usr/bin/env bash
# Set up (Docker engine included) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
# Every test worker and the Python processes tests start import the toolkit: with bytecode written (to a cache outside
# the tree, compiled once up front) none compiles it again (a worker's collection: 18 → 11 CPU-s; `v3ast`'s imports:
# 1.3 → 0.9 CPU-s).
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
.venv/bin/python -m compileall -q -j 0 authoring calibration reviewer_tui v3ast tests >/dev/null || true
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium from Debian's packages (a test screenshots the HTML report)"
  .venv/bin/python -c "from authoring.sandbox.daemon import apt_install; apt_install(['chromium'])"
fi
.venv/bin/ruff check authoring calibration reviewer_tui v3ast tests benchmarks
# -n: most of the suite waits on Docker and subprocesses, so 3 workers share 2 cores well (tests/xdist_schedule.py
# deals the units out; V3AST_TEST_WORKERS=0 runs it in one process)
exec .venv/bin/pytest -q --durations=25 -n "${V3AST_TEST_WORKERS:-3}" "$@"
