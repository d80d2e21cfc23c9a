bin/pull-day hollow-ford 2026-11-28 || true

git status --short
