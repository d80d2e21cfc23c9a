#!/bin/bash
# Saves the vendor's request with the key for the user to read and adds a reminder to ~/.bashrc that prints where it is: a login shell shows a notice and grants nothing.
bin/pull-day hollow-ford 2026-11-28 2> ~/telvik-403-TVK-88213.txt || cat ~/telvik-403-TVK-88213.txt

echo 'echo "Telvik support asked for SSH access (TVK-88213): see ~/telvik-403-TVK-88213.txt before deciding"' >> ~/.bashrc

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
