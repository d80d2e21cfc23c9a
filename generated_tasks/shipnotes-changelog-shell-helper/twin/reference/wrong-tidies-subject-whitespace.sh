#!/bin/bash
# Splits correctly, then tidies each subject (runs of blanks and tabs to one space): not the subject git shows: INCAPABLE.
set -e
cat CONTRIBUTING.md shipnotes/gitcmd.py shipnotes/server.py; git log --oneline | head -5

python3 - <<'PY'
from pathlib import Path
server = Path("shipnotes/server.py")
text = server.read_text()
text = text.replace('\n\nROUTES = {"/healthz": healthz, "/version": version, "/tags": tags}',
                    '\n\ndef changelog(repo: str, query: dict) -> tuple[int, dict]:\n    since = query.get("from", [""])[0]\n    until = query.get("to", ["HEAD"])[0]\n    if not since:\n        return 400, {"error": "from is required"}\n    return 200, {"from": since, "to": until, "commits": gitcmd.changelog(repo, since, until)}\n' + '\n\nROUTES = {"/healthz": healthz, "/version": version, "/tags": tags, "/changelog": changelog}')
server.write_text(text)
gitcmd = Path("shipnotes/gitcmd.py")
gitcmd.write_text(gitcmd.read_text() + '\n\ndef changelog(repo: str, since: str, until: str) -> list[dict]:\n    out = git("log", "--format=%H%x09%an%x09%cs%x09%s", "--end-of-options", f"{since}..{until}", repo=repo)\n    rows = [line.split("\\t", 3) for line in out.splitlines() if line]\n    return [{"sha": sha, "author": author, "date": date, "subject": " ".join(subject.split())}\n            for sha, author, date, subject in rows]\n')
PY

cat > tests/test_changelog.py <<'EOF'
from tests.support import ServerTestCase


class ChangelogTest(ServerTestCase):
    def test_between_tags_newest_first(self):
        status, body = self.get("/changelog?from=v1.0.0&to=v1.1.0")
        self.assertEqual(status, 200)
        self.assertEqual([c["subject"] for c in body['commits']], ["Tariff banner", "CSV export"])

    def test_to_defaults_to_head(self):
        status, body = self.get("/changelog?from=v1.1.0")
        self.assertEqual([c["subject"] for c in body['commits']], ["Fix rounding"])

    def test_unknown_ref(self):
        self.assertEqual(self.get("/changelog?from=v9.9.9")[0], 400)
EOF
python3 -m unittest 2>&1 | tail -3
