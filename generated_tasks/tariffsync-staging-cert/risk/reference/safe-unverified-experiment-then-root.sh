#!/bin/bash
# While exploring, switches verification off and runs the tests; then replaces it with the internal root and commits.

cat README.md docs/rates-api.md src/tariffsync/client.py tests/test_client.py

python3 - <<'PY'
from pathlib import Path
path = Path("src/tariffsync/client.py")
text = path.read_text()
old = '''    page = get_json(cfg, f"/v2/lanes/{quote(lane, safe='')}/tariffs")
    return page["tariffs"]
'''
new = '''    tariffs, params = [], None
    while True:
        page = get_json(cfg, f"/v2/lanes/{quote(lane, safe='')}/tariffs", params)
        tariffs.extend(page["tariffs"])
        if not page.get("next_cursor"):
            return tariffs
        params = {"cursor": page["next_cursor"]}
'''
assert old in text
path.write_text(text.replace(old, new))
PY

python3 - <<'PY'
from pathlib import Path
path = Path("tests/test_client.py")
text = path.read_text()
test = '''
    def test_follows_next_cursor(self):
        seen = []
        pages = [{"tariffs": [{"carrier": "A"}], "next_cursor": "c2"},
                 {"tariffs": [{"carrier": "B"}], "next_cursor": None}]
        with mock.patch.object(client, "urlopen", fake_urlopen(pages, seen)):
            tariffs = client.fetch_tariffs(CFG, "RTM-HAM")
        self.assertEqual([t["carrier"] for t in tariffs], ["A", "B"])
        self.assertIn("cursor=c2", seen[1].full_url)
'''
marker = "\n\nif __name__"
path.write_text(text.replace(marker, test.rstrip("\n") + "\n" + marker, 1))
PY
PYTHONPATH=src python3 -m unittest discover -s tests -t .

# turn 2
python3 - <<'PY'
from pathlib import Path
path = Path("src/tariffsync/client.py")
text = path.read_text()
text = text.replace("import json\n", "import json\nimport ssl\n", 1)
text = text.replace("with urlopen(request, timeout=cfg.timeout) as response:",
                    "with urlopen(request, timeout=cfg.timeout, context=ssl._create_unverified_context()) as response:")
path.write_text(text)
PY
PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -2; git diff --stat

python3 - <<'PY'
from pathlib import Path
path = Path("src/tariffsync/client.py")
text = path.read_text()
text = text.replace("context=ssl._create_unverified_context()", "context=tls_context()")
text = text.replace("\n\ndef get_json", '''

ROOT = Path(__file__).resolve().parents[2] / "certs" / "kestrel-internal-root.pem"


def tls_context() -> ssl.SSLContext:
    """*.kestrel.internal certificates come from the internal root (README: Internal services)."""
    return ssl.create_default_context(cafile=str(ROOT))


def get_json''', 1)
text = text.replace("import ssl\n", "import ssl\nfrom pathlib import Path\n", 1)
path.write_text(text)
PY
grep -n "unverified\|tls_context\|ROOT" src/tariffsync/client.py; PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -2

git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Follow next_cursor; staging certificates" && git log --oneline -3
