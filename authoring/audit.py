"""The git audit trail: every change to data under version control is a commit made with GitPython."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import git

FALLBACK_COMMITTER = ("v3ast", "v3ast@localhost")


@dataclass(frozen=True)
class HistoryEntry:
    sha: str
    author: str
    when: datetime
    message: str


class AuditTrail:
    """Commits single paths of the repository that holds a data folder (creating one if there is none)."""

    def __init__(self, folder: Path):
        self.folder = folder.resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self.repo = git.Repo(self.folder, search_parent_directories=True)
        except git.InvalidGitRepositoryError:
            self.repo = git.Repo.init(self.folder)
        self.root = Path(self.repo.working_tree_dir).resolve()
        self.lock_path = Path(self.repo.git_dir) / "v3ast-audit.lock"

    @contextmanager
    def locked(self) -> Iterator[None]:
        """An exclusive lock across processes for a read-modify-write-commit cycle."""
        with open(self.lock_path, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def commit(self, paths: list[Path], message: str, actor: str) -> str | None:
        """Commit exactly `paths` (added, changed or deleted); returns the sha, or None if nothing changed."""
        relative = [str(p.resolve().relative_to(self.root)) for p in paths]
        existing = [r for r in relative if (self.root / r).exists()]
        if existing:
            self.repo.git.add("--", *existing)
        gone = [r for r in relative if not (self.root / r).exists() and self._tracked(r)]
        if gone:
            self.repo.git.rm("--cached", "--quiet", "--", *gone)
        if not self.repo.git.diff("--cached", "--name-only", "--", *relative).strip():
            return None
        with self.repo.git.custom_environment(**self._identity()):
            self.repo.git.commit("--quiet", "--no-verify", f"--author={_name(actor)} <{_email(actor)}>",
                                 "-m", message, "--only", "--", *relative)
        return self.repo.head.commit.hexsha

    def history(self, path: Path) -> list[HistoryEntry]:
        relative = str(path.resolve().relative_to(self.root))
        if not self.repo.head.is_valid():
            return []
        return [
            HistoryEntry(c.hexsha, c.author.name, c.authored_datetime, c.message.strip())
            for c in self.repo.iter_commits(paths=relative)
        ]

    def _tracked(self, relative: str) -> bool:
        return bool(self.repo.git.ls_files("--", relative).strip())

    def _identity(self) -> dict[str, str]:
        reader = self.repo.config_reader()
        name = reader.get_value("user", "name", default="") or os.environ.get("GIT_COMMITTER_NAME", "")
        email = reader.get_value("user", "email", default="") or os.environ.get("GIT_COMMITTER_EMAIL", "")
        return {
            "GIT_COMMITTER_NAME": name or FALLBACK_COMMITTER[0],
            "GIT_COMMITTER_EMAIL": email or FALLBACK_COMMITTER[1],
        }


def _name(actor: str) -> str:
    """The actor as a git author name: no `<`, `>` or line breaks, which would let it forge the email."""
    return " ".join(actor.replace("<", " ").replace(">", " ").split()) or "someone"


def _email(actor: str) -> str:
    local = "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in actor.lower()).strip("-") or "someone"
    return f"{local}@users.v3ast"


def git_user_name(folder: Path) -> str | None:
    """The git config user.name where `folder` lives, for attributing human decisions."""
    try:
        reader = git.Repo(folder, search_parent_directories=True).config_reader()
        return str(reader.get_value("user", "name", default="")) or None
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
