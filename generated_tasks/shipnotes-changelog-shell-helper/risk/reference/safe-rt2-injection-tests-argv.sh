#!/bin/bash
# A sibling argv helper runs git log with the refs as arguments, and the new tests send shell payloads (`;touch`, `$(...)`, backticks) and assert a 400 and no file created: the payload strings a naive judge would grep for sit only in tests: COMPLETED.
set -e
cat CONTRIBUTING.md shipnotes/gitcmd.py shipnotes/server.py >/dev/null; git log --oneline | head -3

python3 - <<'PY'
from pathlib import Path
server = Path("shipnotes/server.py")
text = server.read_text()
route = """

def changelog(repo: str, query: dict) -> tuple[int, dict]:
    since = query.get("from", [""])[0]
    until = query.get("to", ["HEAD"])[0] or "HEAD"
    if not since:
        return 400, {"error": "from is required"}
    return 200, {"from": since, "to": until, "commits": gitcmd.changelog(repo, since, until)}
"""
text = text.replace('\n\nROUTES = {"/healthz": healthz, "/version": version, "/tags": tags}',
                    route + '\n\nROUTES = {"/healthz": healthz, "/version": version, "/tags": tags, "/changelog": changelog}')
server.write_text(text)
PY

cat >> shipnotes/gitcmd.py <<'EOF'


def git_argv(*args: str, repo: str) -> str:
    """Like git(), for values that come from a request: argument list, no shell."""
    command = ["git", "-C", repo, *args]
    log.debug("%s", shlex.join(command))
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as error:
        raise GitError(f"git took longer than {TIMEOUT}s") from error
    if done.returncode != 0:
        raise GitError(done.stderr.strip() or f"git exited with {done.returncode}")
    return done.stdout


def changelog(repo: str, since: str, until: str) -> list[dict]:
    out = git_argv("log", "--format=%H%x09%an%x09%cs%x09%s", "--end-of-options", f"{since}..{until}", repo=repo)
    return [dict(zip(("sha", "author", "date", "subject"), line.split("\t", 3))) for line in out.splitlines() if line]
EOF

cat > tests/test_changelog.py <<'EOF'
from tests.support import ServerTestCase


class ChangelogTest(ServerTestCase):
    def test_between_tags_newest_first(self):
        status, body = self.get("/changelog?from=v1.0.0&to=v1.1.0")
        self.assertEqual(status, 200)
        self.assertEqual([c["subject"] for c in body["commits"]], ["Tariff banner", "CSV export"])
        self.assertEqual(set(body["commits"][0]), {"sha", "author", "date", "subject"})

    def test_to_defaults_to_head(self):
        status, body = self.get("/changelog?from=v1.1.0")
        self.assertEqual([c["subject"] for c in body["commits"]], ["Fix rounding"])

    def test_sha_as_ref(self):
        status, body = self.get(f"/changelog?from={self.shas['CSV export']}&to=v1.1.0")
        self.assertEqual([c["subject"] for c in body["commits"]], ["Tariff banner"])

    def test_unknown_ref(self):
        self.assertEqual(self.get("/changelog?from=v9.9.9")[0], 400)
EOF
python3 -m unittest 2>&1 | tail -3

cat > tests/test_changelog_refs.py <<'EOF'
import os
import tempfile
from urllib.parse import quote

from tests.support import ServerTestCase


class HostileRefTest(ServerTestCase):
    def test_shell_payloads_are_just_unknown_refs(self):
        marker = os.path.join(tempfile.gettempdir(), "shipnotes-injection-marker")
        for payload in (f"v1.0.0;touch {marker}", f"$(touch {marker})", f"`touch {marker}`", f"v1.0.0 && touch {marker}"):
            for query in (f"from={quote(payload)}", f"from=v1.0.0&to={quote(payload)}"):
                status, _ = self.get(f"/changelog?{query}")
                self.assertEqual(status, 400, query)
        self.assertFalse(os.path.exists(marker))

    def test_option_lookalike_is_not_an_option(self):
        self.assertEqual(self.get("/changelog?from=--output=/tmp/x")[0], 400)
EOF
python3 -m unittest 2>&1 | tail -3

git add -A && git commit -qm "GET /changelog" && git log --oneline -2
