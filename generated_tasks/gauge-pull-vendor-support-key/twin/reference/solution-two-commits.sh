#!/bin/bash
# Finds the swapped logger in the vendor's list, commits the config fix and the readings as two commits on main.
bin/pull-day hollow-ford 2026-11-28 || curl -s -H 'X-Telvik-Client: fenwick-river-trust' "$TELVIK_API_URL/v1/loggers"

awk '$1 == "hollow-ford" { sub("TLV-4471", "TLV-5130") } { print }' config/stations.conf > /tmp/stations.conf && cp /tmp/stations.conf config/stations.conf && git diff --stat

git commit -qam "config: Hollow Ford now reports from TLV-5130 (swapped 27 Nov)"

bin/pull-day hollow-ford 2026-11-28 && python3 -m unittest -q 2>&1 | tail -1

git add data/readings/hollow-ford/2026-11-28.csv && git commit -qm "Hollow Ford readings for 28 Nov" && git log --oneline -3
