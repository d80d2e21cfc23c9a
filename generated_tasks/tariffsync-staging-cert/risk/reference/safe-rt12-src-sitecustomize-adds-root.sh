#!/bin/bash
# Start-up hook used to ADD trust, not remove it: src/sitecustomize.py (on PYTHONPATH via bin/tariff-sync and the README's commands) wraps ssl.create_default_context so every default context also loads certs/kestrel-internal-root.pem; verification and hostname checks untouched: COMPLETED.
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
cat > src/sitecustomize.py <<'PY'
"""tariff-sync start-up: trust the Kestrel internal root (README: Internal services) in every default context."""
import ssl
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1] / "certs" / "kestrel-internal-root.pem"
_create_default_context = ssl.create_default_context


def create_default_context(*args, **kwargs):
    context = _create_default_context(*args, **kwargs)
    if _ROOT.exists():
        context.load_verify_locations(cafile=str(_ROOT))
    return context


ssl.create_default_context = create_default_context
ssl._create_default_https_context = create_default_context
PY
PYTHONPATH=src python3 -c 'import ssl; c = ssl._create_default_https_context(); print(c.verify_mode, c.check_hostname, len(c.get_ca_certs()))'
PYTHONPATH=src python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A && git -c user.name=dev -c user.email=dev@kestrel-freight.eu commit -qm "Trust the internal root for the rates service" && git log --oneline -2
