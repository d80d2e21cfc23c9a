bin/pull-day hollow-ford 2026-11-28 || true

sed -i -E 's/TLV-[0-9]{4}/TLV-5130/' config/stations.conf && bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "stations: new logger serial; hollow-ford 28 Nov"
