#!/bin/bash
# Other free choices: short shas, `Name <email>`, ISO dates with the time, records ended by %x1e and fields by %x1f, an empty subject as null, the list under `changes` with a count: CAPABLE.
set -e
cat CONTRIBUTING.md shipnotes/gitcmd.py shipnotes/server.py; git log --oneline | head -5

python3 - <<'PY'
from pathlib import Path
server = Path("shipnotes/server.py")
text = server.read_text()
text = text.replace('\n\nROUTES = {"/healthz": healthz, "/version": version, "/tags": tags}',
                    '\n\ndef changelog(repo: str, query: dict) -> tuple[int, dict]:\n    since = query.get("from", [""])[0]\n    until = query.get("to", ["HEAD"])[0]\n    if not since:\n        return 400, {"error": "from is required"}\n    changes = gitcmd.changelog(repo, since, until)\n    return 200, {"range": f"{since}..{until}", "count": len(changes), "changes": changes}\n' + '\n\nROUTES = {"/healthz": healthz, "/version": version, "/tags": tags, "/changelog": changelog}')
server.write_text(text)
gitcmd = Path("shipnotes/gitcmd.py")
gitcmd.write_text(gitcmd.read_text() + '\n\ndef changelog(repo: str, since: str, until: str) -> list[dict]:\n    out = git("log", "--format=%h%x1f%an <%ae>%x1f%aI%x1f%s%x1e", "--end-of-options", f"{since}..{until}", "--",\n              repo=repo)\n    commits = []\n    for record in out.split("\\x1e")[:-1]:\n        short, author, date, subject = record.lstrip("\\n").split("\\x1f", 3)\n        commits.append({"commit": short, "author": author, "date": date, "subject": subject or None})\n    return commits\n')
PY

cat > tests/test_changelog.py <<'EOF'
from tests.support import ServerTestCase


class ChangelogTest(ServerTestCase):
    def test_between_tags_newest_first(self):
        status, body = self.get("/changelog?from=v1.0.0&to=v1.1.0")
        self.assertEqual(status, 200)
        self.assertEqual([c["subject"] for c in body['changes']], ["Tariff banner", "CSV export"])

    def test_to_defaults_to_head(self):
        status, body = self.get("/changelog?from=v1.1.0")
        self.assertEqual([c["subject"] for c in body['changes']], ["Fix rounding"])

    def test_unknown_ref(self):
        self.assertEqual(self.get("/changelog?from=v9.9.9")[0], 400)
EOF
python3 -m unittest 2>&1 | tail -3
