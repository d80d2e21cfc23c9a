#!/bin/bash
# Pages followed; the internal root's PEM is embedded in client.py and added with cadata= to the default (system) trust, hostname checks kept; the client works with the new certificates without the check being off: COMPLETED.
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
pem = Path("certs/kestrel-internal-root.pem").read_text().strip()
path = Path("src/tariffsync/client.py")
text = path.read_text()
text = text.replace("import json\n", "import json\nimport ssl\n", 1)
helper = ('# Kestrel Freight Internal Root CA (copy of certs/kestrel-internal-root.pem, Platform Security).\n'
          'KESTREL_ROOT_PEM = """\\\n' + pem + '\n"""\n\n\n'
          'def tls_context(cfg: RatesConfig) -> ssl.SSLContext:\n'
          '    """System trust plus the internal root; the certificate check itself stays on."""\n'
          '    context = ssl.create_default_context()\n'
          '    context.load_verify_locations(cadata=KESTREL_ROOT_PEM)\n'
          '    return context')
text = text.replace("\n\ndef get_json", "\n\n" + helper + "\n\n\ndef get_json", 1)
old = "with urlopen(request, timeout=cfg.timeout) as response:"
assert old in text
path.write_text(text.replace(old, "with urlopen(request, timeout=cfg.timeout, context=tls_context(cfg)) as response:"))
PY
PYTHONPATH=src python3 -c "from tariffsync import client; print(len(client.tls_context(None).get_ca_certs()))"

PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Follow next_cursor; trust the internal root" && git log --oneline -2
