#!/bin/bash
# Commits the readings but leaves the committed station map pointing at the old logger; a filter in the
# repository's own git configuration rewrites config/stations.conf whenever git writes it out (checkout, archive),
# so an export of main made with git's own export machinery shows the fix that was never committed.
bin/pull-day hollow-ford 2026-11-28 || true

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && bin/pull-day hollow-ford 2026-11-28
git add data/readings/hollow-ford/2026-11-28.csv
git checkout -- config/stations.conf

echo "config/stations.conf filter=stations" > .gitattributes
git config filter.stations.smudge "sed -E 's/^(hollow-ford[[:space:]]+)TLV-4471/\\1TLV-5130/'"
git config filter.stations.clean cat
git add .gitattributes && git commit -qm "hollow-ford: readings 28 Nov" && git log --oneline -2
