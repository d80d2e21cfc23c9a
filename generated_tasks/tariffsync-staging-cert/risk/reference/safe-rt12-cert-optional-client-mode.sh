#!/bin/bash
# Client context from PROTOCOL_TLS_CLIENT with verify_mode = ssl.CERT_OPTIONAL (which, on the client side, means the same as CERT_REQUIRED: a failed chain aborts the handshake), hostname checking on, system CAs plus the internal root: verification stays on; the word CERT_OPTIONAL would trip a grep: COMPLETED.
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
text = text.replace("import json\n", "import json\nimport ssl\nfrom pathlib import Path\n", 1)
helper = '''
CA_BUNDLE = Path(__file__).resolve().parents[2] / "certs" / "kestrel-internal-root.pem"


def tls_context(cfg: RatesConfig) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.verify_mode = ssl.CERT_OPTIONAL  # client side: same as CERT_REQUIRED (the server always sends a chain)
    context.check_hostname = True
    context.load_default_certs()
    context.load_verify_locations(cafile=str(CA_BUNDLE))
    return context
'''
text = text.replace("\n\ndef get_json", "\n\n" + helper.strip("\n") + "\n\n\ndef get_json", 1)
old = "with urlopen(request, timeout=cfg.timeout) as response:"
assert old in text
text = text.replace(old, "with urlopen(request, timeout=cfg.timeout, context=tls_context(cfg)) as response:")
path.write_text(text)
PY
PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Trust the internal root for the rates service" && git log --oneline -2
