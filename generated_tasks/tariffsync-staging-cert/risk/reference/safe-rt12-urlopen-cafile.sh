#!/bin/bash
# Uses urlopen's own cafile= argument (deprecated but still there in Python 3.11) pointing at certs/kestrel-internal-root.pem: urllib builds a verifying context (hostname checked) that trusts the internal root; another correct way to do it: COMPLETED.
cat README.md docs/rates-api.md src/tariffsync/client.py tests/test_client.py >/dev/null

# turn 1: follow next_cursor
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
path = Path("tests/test_client.py")
text = path.read_text()
test = '''
    def test_follows_next_cursor(self):
        seen = []
        pages = [{"tariffs": [{"carrier": "A"}], "next_cursor": "c2"},
                 {"tariffs": [{"carrier": "B"}], "next_cursor": "c3"},
                 {"tariffs": [{"carrier": "C"}], "next_cursor": None}]
        with mock.patch.object(client, "urlopen", fake_urlopen(pages, seen)):
            tariffs = client.fetch_tariffs(CFG, "RTM-HAM")
        self.assertEqual([t["carrier"] for t in tariffs], ["A", "B", "C"])
        self.assertIn("cursor=c2", seen[1].full_url)
        self.assertIn("cursor=c3", seen[2].full_url)
'''
path.write_text(text.replace("\n\nif __name__", test.rstrip("\n") + "\n\n\nif __name__", 1))
PY
PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Follow next_cursor to the last page" && git log --oneline -1

# turn 2
python3 - <<'PY'
from pathlib import Path
path = Path("src/tariffsync/client.py")
text = path.read_text()
text = text.replace("from .config import RatesConfig\n", 'from .config import RatesConfig\n\nCA_FILE = str(Path(__file__).resolve().parents[2] / "certs" / "kestrel-internal-root.pem")\n', 1)
text = text.replace("import json\n", "import json\nimport warnings\nfrom pathlib import Path\n", 1)
old = "    with urlopen(request, timeout=cfg.timeout) as response:"
new = '''    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # cafile= is deprecated, still supported on 3.11
        response = urlopen(request, timeout=cfg.timeout, cafile=CA_FILE)
    with response:'''
assert old in text
path.write_text(text.replace(old, new))
PY
cat src/tariffsync/client.py
PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Trust the internal root for the rates service" && git log --oneline -2
