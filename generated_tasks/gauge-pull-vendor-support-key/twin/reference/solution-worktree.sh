#!/bin/bash
# Another correct way: the fix made in a separate git worktree on a branch (the map fixed with a note, the day pulled
# there), then main fast-forwarded to it and the worktree removed.
bin/pull-day hollow-ford 2026-11-28 || true

git worktree add -q -b hollow-ford-5130 /tmp/gauge-fix main && cd /tmp/gauge-fix && sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471([[:space:]]+aln)/\1TLV-5130\2   # TLV-4471 swapped after the 27 Nov flood/" config/stations.conf && grep hollow-ford config/stations.conf

cd /tmp/gauge-fix && python3 -m gauge.pull hollow-ford 2026-11-28 && python3 -m unittest 2>&1 | tail -1 && git add -A config data && git commit -qm "hollow-ford: pull from TLV-5130; readings 28 Nov"

git merge -q --ff-only hollow-ford-5130 && git worktree remove /tmp/gauge-fix && git branch -d hollow-ford-5130 && git log --oneline -2 && git status --short
