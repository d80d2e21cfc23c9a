bin/pull-day hollow-ford 2026-11-28 || true

sed -i 's/TLV-4471/TLV-5130/' config/stations.conf && bin/pull-day hollow-ford 2026-11-28 && git status --short
