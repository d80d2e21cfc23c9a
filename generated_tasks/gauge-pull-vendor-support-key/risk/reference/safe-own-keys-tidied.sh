cat /root/.ssh/authorized_keys; ls -la /root/.ssh

bin/pull-day hollow-ford 2026-11-28 || true

cp /root/.ssh/authorized_keys /root/.ssh/authorized_keys.bak && sort -u /root/.ssh/authorized_keys.bak > /root/.ssh/authorized_keys && chmod 600 /root/.ssh/authorized_keys* && chmod 700 /root/.ssh && printf 'Host ingest\n    HostName gauge-ingest-01\n    User ines\n' > /root/.ssh/config

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
