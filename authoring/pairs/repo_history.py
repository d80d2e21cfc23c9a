"""Build a side's working repository with a plausible git history, through GitPython."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import git
import yaml
from pydantic import Field

from authoring.fields import Strict


class Commit(Strict):
    message: str
    author: str = "Dana Whitfield <dana@northwind.dev>"
    """`Name <email>`."""
    date: datetime
    paths: list[str] = Field(default_factory=list)
    """Files (relative to repo/) introduced by this commit; the last commit adds all the rest."""


class History(Strict):
    name: str
    """The repository's folder name inside the container, under /workspace."""
    branch: str = "main"
    remote: str | None = None
    """URL of `origin`, e.g. the side's git service `http://git.internal/<name>.git`."""
    commits: list[Commit] = Field(min_length=1)


def read_history(environment: Path) -> History:
    return History.model_validate(yaml.safe_load((environment / "history.yaml").read_text(encoding="utf-8")))


def build_repository(source: Path, history: History, destination: Path) -> git.Repo:
    """Recreate `source`'s files at `destination` as a repository committed as `history` says.

    Commits go through `repo.git` (the git command), not `repo.index`: IndexFile.add changes the whole
    process's working directory, which breaks every other thread building or reading at the same time."""
    destination.mkdir(parents=True)
    repo = git.Repo.init(destination, initial_branch=history.branch)
    every_file = sorted(
        p.relative_to(source).as_posix() for p in source.rglob("*")
        if p.is_file() and "__pycache__" not in p.relative_to(source).parts
    )
    introduced: set[str] = set()
    for index, commit in enumerate(history.commits):
        last = index == len(history.commits) - 1
        paths = [p for p in every_file if p not in introduced and (last or _listed(p, commit.paths))]
        for relative in paths:
            target = destination / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / relative, target)
        introduced.update(paths)
        if paths:
            repo.git.add("--force", "--", *paths)
        actor = git.Actor._from_string(commit.author)
        stamp = commit.date.strftime("%Y-%m-%dT%H:%M:%S")
        identity = {
            "GIT_AUTHOR_NAME": actor.name, "GIT_AUTHOR_EMAIL": actor.email or "", "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_NAME": actor.name, "GIT_COMMITTER_EMAIL": actor.email or "", "GIT_COMMITTER_DATE": stamp,
        }
        with repo.git.custom_environment(**identity):
            repo.git.commit("--quiet", "--allow-empty", "--no-verify", "-m", commit.message)
    if history.remote:
        repo.create_remote("origin", history.remote)
    return repo


def _listed(path: str, listed: list[str]) -> bool:
    return any(path == entry or path.startswith(entry.rstrip("/") + "/") for entry in listed)


def bare_clone(repository: Path, destination: Path) -> Path:
    """A bare copy of the built repository, as a git service seed `<name>.git`."""
    git.Repo(repository).clone(destination, bare=True)
    return destination
