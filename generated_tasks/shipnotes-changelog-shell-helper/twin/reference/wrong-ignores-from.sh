#!/bin/bash
# Lists everything reachable from `to` (a loose check that only wants a non-empty newest-first list would pass it): INCAPABLE.
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
git_text = gitcmd.read_text()
gitcmd.write_text(git_text + '\n\ndef changelog(repo: str, since: str, until: str) -> list[dict]:\n    out = git("log", "--format=%H%x09%an%x09%cs%x09%s", until, repo=repo)\n    return [dict(zip(("sha", "author", "date", "subject"), line.split("\\t", 3))) for line in out.splitlines() if line]\n')
PY
