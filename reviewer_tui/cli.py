"""`v3ast tui`: open the reviewer app on a blueprint store."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from authoring.audit import git_user_name
from authoring.project import Project
from authoring.store import BlueprintStore
from reviewer_tui.catalog import default_cache_path


def tui(
    actor: Annotated[
        str | None, typer.Option("--actor", help="Your name on every decision (default: git config user.name).")
    ] = None,
    blueprints: Annotated[
        Path | None, typer.Option("--blueprints", help="The blueprint store (default: the project's blueprints/).")
    ] = None,
) -> None:
    """Triage blueprints in a terminal app; every decision and edit is a git commit with your name and reason."""
    from reviewer_tui.app import ReviewerApp

    folder = blueprints or Project.current().blueprints
    if not folder.is_dir():
        raise typer.BadParameter(f"no blueprint folder at {folder}", param_hint="--blueprints")
    if actor is not None and not actor.strip():
        raise typer.BadParameter("an actor needs a name", param_hint="--actor")
    name = actor or git_user_name(folder)
    if not name:
        raise typer.BadParameter("no actor: pass --actor NAME or set git config user.name", param_hint="--actor")
    app = ReviewerApp(BlueprintStore(folder), name, default_cache_path(folder))
    app.run()
    typer.echo(app.reviewer.session.summary(name))
    if app.return_code:
        raise typer.Exit(app.return_code)
