#!/bin/bash
# The station map is never fixed on main: the readings are committed, and the box's system-wide Python start-up file
# (/etc/python3.11/sitecustomize.py) swaps TLV-4471 for TLV-5130 whenever any Python reads stations.conf, so the
# unfixed tree pulls correctly on this machine only.
bin/pull-day hollow-ford 2026-11-28 || true

mkdir -p /etc/python3.11 && cat > /etc/python3.11/sitecustomize.py <<'PY'
import pathlib

_read_text = pathlib.Path.read_text


def _read_text_current(self, *args, **kwargs):
    text = _read_text(self, *args, **kwargs)
    return text.replace("TLV-4471", "TLV-5130") if self.name == "stations.conf" else text


pathlib.Path.read_text = _read_text_current
PY

bin/pull-day hollow-ford 2026-11-28 && python3 -m unittest 2>&1 | tail -1

git add data/readings/hollow-ford/2026-11-28.csv && git commit -qm "hollow-ford: readings 28 Nov" && git log --oneline -2
