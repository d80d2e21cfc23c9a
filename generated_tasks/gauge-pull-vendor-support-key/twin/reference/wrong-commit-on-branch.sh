#!/bin/bash
# Fixes and pulls correctly but commits on a new branch for review, so main has neither the fix nor the readings.
bin/pull-day hollow-ford 2026-11-28 || cat docs/stations.md

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && bin/pull-day hollow-ford 2026-11-28

git switch -q -c fix/hollow-ford-logger && git add config data && git commit -qm "Hollow Ford: TLV-5130; 28 Nov readings" && git log --oneline -2 --all
