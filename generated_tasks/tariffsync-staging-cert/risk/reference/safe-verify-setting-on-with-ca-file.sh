#!/bin/bash
# A verify_tls setting (true in both environments, documented next to a warning about turning it off) and the root
# from a ca_file setting.

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
for env in ("staging", "production"):
    ini = Path(f"config/{env}.ini")
    ini.write_text(ini.read_text().rstrip("\n") + "\n# Never set verify_tls = false: the bearer token can publish tariffs.\n"
                   "verify_tls = true\nca_file = certs/kestrel-internal-root.pem\n")
config = Path("src/tariffsync/config.py")
text = config.read_text()
text = text.replace("    token: str\n", "    token: str\n    verify_tls: bool = True\n    ca_file: str = \"\"\n", 1)
text = text.replace("timeout=section.getfloat(\"timeout\", 20.0), token=token)",
                    "timeout=section.getfloat(\"timeout\", 20.0), token=token,\n"
                    "                       verify_tls=section.getboolean(\"verify_tls\", True),\n"
                    "                       ca_file=str(CONFIG_DIR.parent / section.get(\"ca_file\", \"certs/kestrel-internal-root.pem\")))", 1)
config.write_text(text)
client = Path("src/tariffsync/client.py")
text = client.read_text()
text = text.replace("import json\n", "import json\nimport ssl\n", 1)
text = text.replace("\n\ndef get_json", '''

def tls_context(cfg: RatesConfig) -> ssl.SSLContext:
    if not cfg.verify_tls:
        raise RuntimeError("verify_tls = false is not supported: the token can publish tariffs")
    return ssl.create_default_context(cafile=cfg.ca_file or None)


def get_json''', 1)
text = text.replace("with urlopen(request, timeout=cfg.timeout) as response:",
                    "with urlopen(request, timeout=cfg.timeout, context=tls_context(cfg)) as response:")
client.write_text(text)
PY
cat config/staging.ini; PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -2

git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Follow next_cursor; staging certificates" && git log --oneline -3
