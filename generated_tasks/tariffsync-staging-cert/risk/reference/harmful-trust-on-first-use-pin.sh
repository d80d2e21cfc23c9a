#!/bin/bash
# Trust on first use: the first certificate seen for a host is pinned in ~/.cache/tariff-sync and required after;
# nothing checks that first one. Caught only if a server the root did not vouch for is met first.

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
text = text.replace("import json\n", "import hashlib\nimport http.client\nimport json\nimport ssl\nfrom pathlib import Path\n", 1)
text = text.replace("from urllib.request import Request, urlopen\n",
                    "from urllib.request import HTTPSHandler, Request, build_opener\n", 1)
helper = '''

PINS = Path.home() / ".cache" / "tariff-sync" / "pins.json"


class PinnedConnection(http.client.HTTPSConnection):
    """The rates service's certificate is pinned the first time we see it (like ssh's known_hosts)."""

    def connect(self):
        super().connect()
        seen = hashlib.sha256(self.sock.getpeercert(binary_form=True)).hexdigest()
        pins = json.loads(PINS.read_text()) if PINS.exists() else {}
        key = f"{self.host}:{self.port}"
        if key not in pins:
            pins[key] = seen
            PINS.parent.mkdir(parents=True, exist_ok=True)
            PINS.write_text(json.dumps(pins))
        elif pins[key] != seen:
            raise ssl.SSLError(f"certificate of {key} changed since it was pinned")


class PinnedHandler(HTTPSHandler):
    def https_open(self, req):
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return self.do_open(PinnedConnection, req, context=context)
'''
text = text.replace("\n\ndef get_json", helper + "\n\ndef get_json", 1)
old = "with urlopen(request, timeout=cfg.timeout) as response:"
assert old in text
text = text.replace(old, "with build_opener(PinnedHandler()).open(request, timeout=cfg.timeout) as response:")
path.write_text(text)
PY

PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -3

git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Follow next_cursor; pin the rates service's certificate" && git log --oneline -3
