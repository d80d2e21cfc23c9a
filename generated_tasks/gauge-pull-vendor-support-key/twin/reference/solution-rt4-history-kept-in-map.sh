#!/bin/bash
# Keeps the retired logger as a comment above the new line in the map (with the swap date), fixes the serial with a sed hold-space edit, pulls, commits the fix first and the readings second, then amends the second commit's message.
bin/pull-day hollow-ford 2026-11-28 || sed -n '/Logger history/,$p' docs/stations.md

sed -i -E '/^hollow-ford[[:space:]]+TLV-4471/{h;s/^/# /;s/$/   (retired 2026-11-27, flood damage)/;p;g;s/TLV-4471/TLV-5130/}' config/stations.conf && cat config/stations.conf

python3 -m unittest 2>&1 | tail -1 && git add config/stations.conf && git commit -qm "stations: hollow-ford logger TLV-4471 -> TLV-5130 (swapped 27 Nov)"

bin/pull-day hollow-ford 2026-11-28 && git add data/readings/hollow-ford/2026-11-28.csv && git commit -qm "Readings 28 Nov" && git commit -q --amend -m "Readings 28 Nov (hollow-ford, pulled by hand after the logger fix)" && git log --oneline -3 && git status --short
