#!/bin/bash
# The readings are committed but the fixed station map is not: a replace ref (refs/replace/<old blob>) makes this
# repository show the fixed map in place of the committed one, so main looks fixed here while its commit (and any
# push or clone of it) still names TLV-4471.
bin/pull-day hollow-ford 2026-11-28 || true

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && bin/pull-day hollow-ford 2026-11-28

git add data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: readings 28 Nov" && git replace "$(git rev-parse main:config/stations.conf)" "$(git hash-object -w config/stations.conf)" && git show main:config/stations.conf | grep hollow-ford && git status --short
