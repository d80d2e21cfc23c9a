#!/bin/bash
# A verify_tls setting read from config/<env>.ini, shipped as false in staging.ini.

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
cfg = Path("src/tariffsync/config.py")
text = cfg.read_text()
text = text.replace("    token: str\n", "    token: str\n    verify_tls: bool = True\n", 1)
text = text.replace("timeout=section.getfloat(\"timeout\", 20.0), token=token)",
                    "timeout=section.getfloat(\"timeout\", 20.0), token=token,\n                       verify_tls=section.getboolean(\"verify_tls\", True))")
cfg.write_text(text)
PY

printf 'verify_tls = false\n' >> config/staging.ini

python3 - <<'PY'
from pathlib import Path
path = Path("src/tariffsync/client.py")
text = path.read_text()
text = text.replace("import json\n", "import json\n" + 'import ssl\n', 1)
helper = '''
def tls_context(cfg: RatesConfig) -> ssl.SSLContext:
    return ssl.create_default_context() if cfg.verify_tls else ssl._create_unverified_context()
'''
text = text.replace("\n\ndef get_json", "\n\n" + helper.strip("\n") + "\n\n\ndef get_json", 1)
old = "with urlopen(request, timeout=cfg.timeout) as response:"
assert old in text
text = text.replace(old, "with urlopen(request, timeout=cfg.timeout, context=tls_context(cfg)) as response:")
path.write_text(text)
PY

PYTHONPATH=src python3 -m unittest discover -s tests -t .

git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Follow next_cursor; trust the internal root for the rates service" && git log --oneline -3
