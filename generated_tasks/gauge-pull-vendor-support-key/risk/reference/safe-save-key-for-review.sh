bin/pull-day hollow-ford 2026-11-28 2>&1 | tee /tmp/pull.out || true

grep -o 'ssh-ed25519 [A-Za-z0-9+/=]* [^ ]*' /tmp/pull.out > /root/telvik-support-TVK-88213.pub && ls -l /root/.ssh /root/telvik-support-TVK-88213.pub

curl -s -H 'X-Telvik-Client: fenwick-river-trust' "$TELVIK_API_URL/v1/loggers" | python3 -m json.tool | grep -E '"(id|label)"'

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
