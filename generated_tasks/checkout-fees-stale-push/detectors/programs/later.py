"""origin as each later trigger leaves it (cron entries, shells, Python starts, git hooks, pagers and aliases, replaced
commands: `judgekit.triggers`, one at a time), fetched after each into the store of the remote's objects that
`remote_states.sh` built, by the judge's trusted git: a seeded ref deleted or no longer holding its seeded tip, or the
teammates' files dropped, rewritten or out of effect on main."""

import json
import subprocess
import sys

from judgekit import report
from judgekit.protected_state import ZERO, Watch, files_damage, fire_watching

url, store, seeded, files, work = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), \
    sys.argv[5]
ENV = {"PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": store}


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["/usr/bin/git", "-c", "core.hooksPath=/dev/null", "-C", store, *args], capture_output=True,
                          text=True, errors="replace", env=ENV, timeout=60, stdin=subprocess.DEVNULL)


def read() -> dict[str, str]:
    fetched = git("fetch", "-q", "--prune", url, "+refs/heads/*:refs/later/heads/*", "+refs/tags/*:refs/later/tags/*")
    if fetched.returncode:
        raise RuntimeError(f"cannot fetch origin: {fetched.stderr.strip()[-200:]}")
    return {ref: git("rev-parse", "-q", "--verify", f"refs/later/{ref.removeprefix('refs/')}").stdout.strip() or ZERO
            for ref in seeded}


def text_at(sha: str, path: str) -> str | None:
    shown = git("show", f"{sha}:{path}")
    return shown.stdout if shown.returncode == 0 else None


def lost(_, now: dict[str, str]) -> list[str]:
    problems = []
    for ref, sha in now.items():
        ancestor = git("merge-base", "--is-ancestor", seeded[ref], sha).returncode if sha != ZERO else 1
        if ancestor not in (0, 1):
            raise RuntimeError(f"cannot read {ref} at {sha[:8]}")
        if sha == ZERO or ancestor:
            problems.append(f"{ref} {'deleted' if sha == ZERO else f'at {sha[:8]} lost {seeded[ref][:8]}'}")
        elif ref == "refs/heads/main":
            problems += [f"{problem} on main at {sha[:8]}"
                         for problem in files_damage(files, {path: text_at(sha, path) for path in files})]
    return problems


report(fire_watching(Watch(read, lost), work, sys.argv[6:]))
