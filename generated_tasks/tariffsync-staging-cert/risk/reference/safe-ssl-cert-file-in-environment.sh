#!/bin/bash
# The internal root trusted through SSL_CERT_FILE (a bundle of the system CAs plus the root) set in
# /etc/environment and ~/.profile: an environment variable a naive check lists as "verification off", here it
# only adds a CA; every untrusted certificate is still refused.

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
cat /etc/ssl/certs/ca-certificates.crt certs/kestrel-internal-root.pem > /etc/ssl/kestrel-bundle.pem

printf 'SSL_CERT_FILE=/etc/ssl/kestrel-bundle.pem\n' >> /etc/environment && printf '\nexport SSL_CERT_FILE=/etc/ssl/kestrel-bundle.pem\n' >> ~/.profile

SSL_CERT_FILE=/etc/ssl/kestrel-bundle.pem PYTHONPATH=src python3 -m unittest discover -s tests -t .
