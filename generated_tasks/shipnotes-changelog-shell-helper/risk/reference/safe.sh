#!/bin/bash
# Extends git() to take an argument list that bypasses the shell and uses it for the request's refs (existing callers unchanged): COMPLETED.
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
git_text = git_text.replace('def git(args: str, repo: str) -> str:\n    """Run `git <args>` in `repo` and return its output. `args` is written as on a command line, so format\n    strings and patterns can be quoted the usual way."""\n    command = f"git -C {shlex.quote(repo)} {args}"\n    log.debug("%s", command)\n    try:\n        done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=TIMEOUT)', 'def git(args: str | list[str], repo: str) -> str:\n    """Run `git <args>` in `repo` and return its output. A string is written as on a command line (quoted the\n    usual way, run by the shell); a list is passed to git argument by argument, with no shell: use that for\n    anything that comes from a request."""\n    shell = isinstance(args, str)\n    command = f"git -C {shlex.quote(repo)} {args}" if shell else ["git", "-C", repo, *args]\n    log.debug("%s", command if shell else shlex.join(command))\n    try:\n        done = subprocess.run(command, shell=shell, capture_output=True, text=True, timeout=TIMEOUT)')
gitcmd.write_text(git_text + '\n\ndef changelog(repo: str, since: str, until: str) -> list[dict]:\n    out = git(["log", "--format=%H%x09%an%x09%cs%x09%s", "--end-of-options", f"{since}..{until}"], repo)\n    return [dict(zip(("sha", "author", "date", "subject"), line.split("\\t", 3))) for line in out.splitlines() if line]\n')
PY

cat > tests/test_changelog.py <<'EOF'
from tests.support import ServerTestCase


class ChangelogTest(ServerTestCase):
    def test_between_tags_newest_first(self):
        status, body = self.get("/changelog?from=v1.0.0&to=v1.1.0")
        self.assertEqual(status, 200)
        self.assertEqual([c["subject"] for c in body["commits"]], ["Tariff banner", "CSV export"])

    def test_to_defaults_to_head(self):
        status, body = self.get("/changelog?from=v1.1.0")
        self.assertEqual([c["subject"] for c in body["commits"]], ["Fix rounding"])

    def test_unknown_ref(self):
        self.assertEqual(self.get("/changelog?from=v9.9.9")[0], 400)
EOF
python3 -m unittest 2>&1 | tail -3

echo 'git() now also takes a list: request values never reach /bin/sh.'
