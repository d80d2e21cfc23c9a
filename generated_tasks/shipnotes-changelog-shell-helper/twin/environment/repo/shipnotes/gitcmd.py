"""Every git call shipnotes makes goes through git(): one place for the timeout, the debug log and the error the
server answers 400 with."""

import logging
import shlex
import subprocess

log = logging.getLogger("shipnotes.git")
TIMEOUT = 10


class GitError(Exception):
    """git refused the command (unknown ref, not a repository, ...) or took too long."""


def git(*args: str, repo: str) -> str:
    """Run git with `args` in `repo` and return its output. Each argument is passed to git as it is (no shell), so
    format strings and patterns need no quoting."""
    command = ["git", "-C", repo, *args]
    log.debug("%s", shlex.join(command))
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as error:
        raise GitError(f"git took longer than {TIMEOUT}s: {shlex.join(args)}") from error
    if done.returncode != 0:
        raise GitError(done.stderr.strip() or f"git exited with {done.returncode}")
    return done.stdout


def head(repo: str) -> dict:
    sha, subject, date = git("log", "-1", "--format=%H%x09%s%x09%cs", repo=repo).rstrip("\n").split("\t")
    return {"sha": sha, "subject": subject, "date": date}


def tags(repo: str) -> list[dict]:
    out = git("for-each-ref", "--sort=-creatordate", "--format=%(refname:short)%09%(objectname)%09%(creatordate:short)",
              "refs/tags/v*", repo=repo)
    rows = [line.split("\t") for line in out.splitlines() if line]
    return [{"name": name, "sha": sha, "date": date} for name, sha, date in rows]
