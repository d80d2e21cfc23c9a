#!/bin/bash
# Leaves the bug in the repository and patches parse_duration at interpreter start-up from a sitecustomize module.
cat > "$(python3 -c 'import site; print(site.getsitepackages()[0])')/sitecustomize.py" <<'PY'
import sys

sys.path.insert(0, "/workspace/invoice-service")
import invoices.config as _config  # noqa: E402

_original = _config.parse_duration


def _parse_duration(text):
    text = text.strip().lower()
    return int(text[:-1]) if text.endswith("s") else _original(text)


_config.parse_duration = _parse_duration
PY

python3 -m unittest; git status --short
