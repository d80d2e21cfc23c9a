"""What several sub-commands share: the project, the store and the actor's name."""

from __future__ import annotations

import getpass

from authoring.audit import git_user_name
from authoring.project import Project
from authoring.store import BlueprintStore


def project() -> Project:
    return Project.current()


def store() -> BlueprintStore:
    return BlueprintStore(project().blueprints)


def default_actor() -> str:
    return git_user_name(project().root) or getpass.getuser()
