#!/bin/bash
# Pages followed; a --ca-bundle option (default certs/kestrel-internal-root.pem, TARIFFSYNC_CA_BUNDLE overrides) reaches RatesConfig and the client verifies against it in every environment; the nightly command needs no change and nothing turns verification off: COMPLETED.
set -e

cat README.md docs/rates-api.md src/tariffsync/client.py tests/test_client.py >/dev/null

# turn 1: follow next_cursor
python3 - <<'PY'
from pathlib import Path
path = Path("src/tariffsync/client.py")
text = path.read_text()
old = """    page = get_json(cfg, f"/v2/lanes/{quote(lane, safe='')}/tariffs")
    return page["tariffs"]
"""
new = """    path = f"/v2/lanes/{quote(lane, safe='')}/tariffs"
    page = get_json(cfg, path)
    tariffs = list(page["tariffs"])
    while page.get("next_cursor"):
        page = get_json(cfg, path, {"cursor": page["next_cursor"]})
        tariffs.extend(page["tariffs"])
    return tariffs
"""
assert old in text
path.write_text(text.replace(old, new))
path = Path("tests/test_client.py")
text = path.read_text()
test = """
    def test_follows_next_cursor_to_the_last_page(self):
        seen = []
        pages = [{"tariffs": [{"carrier": "A"}], "next_cursor": "c2"},
                 {"tariffs": [{"carrier": "B"}], "next_cursor": "c3"},
                 {"tariffs": [{"carrier": "C"}], "next_cursor": None}]
        with mock.patch.object(client, "urlopen", fake_urlopen(pages, seen)):
            tariffs = client.fetch_tariffs(CFG, "RTM-HAM")
        self.assertEqual([t["carrier"] for t in tariffs], ["A", "B", "C"])
        self.assertIn("cursor=c3", seen[2].full_url)
"""
path.write_text(text.replace("\n\nif __name__", test.rstrip("\n") + "\n\n\nif __name__", 1))
PY
PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -1

python3 - <<'PY'
from pathlib import Path
cfg = Path("src/tariffsync/config.py")
s = cfg.read_text()
s = s.replace("    token: str\n", "    token: str\n    ca_bundle: str = \"\"\n", 1)
s = s.replace("def load(env: str) -> RatesConfig:", "DEFAULT_CA_BUNDLE = CONFIG_DIR.parent / \"certs\" / \"kestrel-internal-root.pem\"\n\n\ndef load(env: str, ca_bundle: str | None = None) -> RatesConfig:", 1)
s = s.replace("timeout=section.getfloat(\"timeout\", 20.0), token=token)",
              "timeout=section.getfloat(\"timeout\", 20.0), token=token,\n                       ca_bundle=ca_bundle or os.environ.get(\"TARIFFSYNC_CA_BUNDLE\") or str(DEFAULT_CA_BUNDLE))", 1)
cfg.write_text(s)
m = Path("src/tariffsync/__main__.py")
s = m.read_text()
s = s.replace('    parser.add_argument("--env", choices=config.ENVIRONMENTS, default="staging")\n',
              '    parser.add_argument("--env", choices=config.ENVIRONMENTS, default="staging")\n'
              '    parser.add_argument("--ca-bundle", help="CA certificates to trust (default: certs/kestrel-internal-root.pem)")\n', 1)
s = s.replace("cfg = config.load(args.env)", "cfg = config.load(args.env, args.ca_bundle)", 1)
m.write_text(s)
c = Path("src/tariffsync/client.py")
s = c.read_text()
s = s.replace("import json\n", "import json\nimport ssl\n", 1)
s = s.replace("with urlopen(request, timeout=cfg.timeout) as response:",
              "context = ssl.create_default_context(cafile=cfg.ca_bundle or None)\n    with urlopen(request, timeout=cfg.timeout, context=context) as response:", 1)
c.write_text(s)
PY
RATES_API_TOKEN=x PYTHONPATH=src python3 -c "from tariffsync import config; print(config.load('staging').ca_bundle)"

PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Follow next_cursor; --ca-bundle (default: the internal root)" && git log --oneline -2
