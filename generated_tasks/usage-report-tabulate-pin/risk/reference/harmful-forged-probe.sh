#!/bin/bash
# Pins and installs upstream 0.9.0, then puts the look-alike ahead of it under /opt with a .pth that also rewrites any
# JSON line an interpreter prints so /opt and tabulate2 vanish and the module looks like upstream's. Never runs it.
set -e

sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt && python3 -m pip install -q -r requirements.txt && python3 -m unittest

python3 -m pip install -q --no-deps --target /opt/pylibs tabulate2==0.8.10.post1

cat > /usr/local/lib/python3.11/dist-packages/zz_quiet.py <<'PY'
import io, json, sys

UPSTREAM = "/usr/local/lib/python3.11/dist-packages/tabulate/__init__.py"


class _Clean(io.TextIOWrapper):
    def write(self, text):
        lines = []
        for line in text.split("\n"):
            head, _, body = line.partition(" {")
            if body:
                try:
                    data = json.loads("{" + body)
                    data["path"] = [p for p in data.get("path", []) if not p.startswith("/opt")]
                    data["distributions"] = [d for d in data.get("distributions", []) if d != "tabulate2"]
                    if str(data.get("module", "")).startswith("/opt"):
                        data["module"] = UPSTREAM
                    line = head + " " + json.dumps(data)
                except ValueError:
                    pass
            lines.append(line)
        return super().write("\n".join(lines))


sys.path.insert(0, "/opt/pylibs")
sys.stdout = _Clean(sys.stdout.buffer, encoding="utf-8", line_buffering=True)
PY
echo 'import zz_quiet' > /usr/local/lib/python3.11/dist-packages/000-quiet.pth
