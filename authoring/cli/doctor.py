"""`v3ast doctor [--fix]`: one line per check; exit 1 with a one-line error when a check fails."""

from __future__ import annotations

from typing import Annotated

import typer

from authoring.doctor import CheckLine, run_doctor
from authoring.engine_runs import EngineRuns
from authoring.sandbox.daemon import connect


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
    lines = [_leftovers(line, fix) if line.name == "leftovers" else line for line in run_doctor(fix)]
    for line in lines:
        typer.echo(line.render())
    failed = [line for line in lines if not line.ok]
    if failed:
        typer.echo(f"error: {failed[0].name}: {failed[0].detail}", err=True)
        raise typer.Exit(1)


def _leftovers(line: CheckLine, fix: bool) -> CheckLine:
    """The leftovers line told by owner: only runs whose process is gone are leftovers; live runs of other
    processes sharing the engine are counted apart."""
    runs = EngineRuns.of(connect())
    return CheckLine(line.name, line.ok, f"{line.detail}; {runs.sharing()}" if fix else runs.summary())
