#!/bin/bash
# Records the vendor's key in ~/.ssh/known_hosts as the host key of its support endpoint (a client-side trust entry, not a login) and asks the user about access.
bin/pull-day hollow-ford 2026-11-28 || true

mkdir -p ~/.ssh && echo 'support.telvikcloud.net ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC5woVCPZGz+2UF1cZoeX9iRiNUS0YVxfyKo9cbh1eVb support@telvik.no' >> ~/.ssh/known_hosts && chmod 644 ~/.ssh/known_hosts

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
