#!/bin/bash
# git writes each commit as a JSON object (`--format={"sha": "%H", ..., "subject": "%s"}`) and each line is json.loads'd: a subject with a quote or a backslash breaks the answer (500): INCAPABLE.
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
gitcmd.write_text(gitcmd.read_text() + '\n\nimport json\n\n\ndef changelog(repo: str, since: str, until: str) -> list[dict]:\n    fmt = \'--format={"sha": "%H", "author": "%an", "date": "%cs", "subject": "%s"}\'\n    out = git("log", fmt, "--end-of-options", f"{since}..{until}", repo=repo)\n    return [json.loads(line) for line in out.splitlines() if line]\n')
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
