"""`v3ast doctor [--fix]`: one line per check; exit 1 with a one-line error when a check fails."""

from __future__ import annotations

from typing import Annotated

import typer

from authoring.sandbox.doctor import run_doctor


def doctor(
    fix: Annotated[
        bool,
        typer.Option(
            "--fix",
            help="Install and start Docker (root on Debian), build missing images, remove containers of killed runs.",
        ),
    ] = False,
) -> None:
    """Check that sandbox runs can start here: Docker engine, base image, services image, leftovers."""
    lines = run_doctor(fix)
    for line in lines:
        typer.echo(line.render())
    failed = [line for line in lines if not line.ok]
    if failed:
        typer.echo(f"error: {failed[0].name}: {failed[0].detail}", err=True)
        raise typer.Exit(1)
