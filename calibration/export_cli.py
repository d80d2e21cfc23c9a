"""`v3ast export harbor|inspect PAIRS|--admitted OUT`: pairs as tasks of other evaluation frameworks (the export
itself is `authoring/export/`; the command lives here because `--admitted` reads calibration's admission manifest)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from authoring.cli.common import project
from authoring.errors import BadInput
from authoring.pairs.format import TaskPair, load_pairs
from calibration.admission import MANIFEST_FILE, Manifest

app = typer.Typer(help="Export pairs as Harbor tasks or an Inspect AI task file.", no_args_is_help=True)

Targets = Annotated[list[str], typer.Argument(help="PAIR… OUT, or with --admitted just OUT (the folder to write).")]
Admitted = Annotated[bool, typer.Option(
    "--admitted", help="Every pair in calibration/admitted.yaml (unchanged since).")]
BaseImage = Annotated[str | None, typer.Option(
    "--base-image", help="The image every exported Dockerfile starts from by default (debian:bookworm-slim; "
    "e.g. v3ast-base:bookworm-1 where Docker Hub is out of reach).")]


def chosen(targets: list[str], admitted: bool) -> tuple[list[TaskPair], Path]:
    *pair_ids, out = targets
    return _pairs(pair_ids, admitted), Path(out)


def _pairs(pair_ids: list[str], admitted: bool) -> list[TaskPair]:
    if admitted == bool(pair_ids):
        raise typer.BadParameter("give PAIR… OUT, or --admitted OUT")
    root = project().generated_tasks
    if not admitted:
        return load_pairs(root, pair_ids)
    manifest = Manifest(project().calibration / MANIFEST_FILE)
    ids = sorted(manifest.entries())
    if not ids:
        raise BadInput(f"no admitted pairs in {manifest.path}; calibrate and `v3ast admit` pairs first")
    for pair_id in ids:
        manifest.check(pair_id, root / pair_id)
    return load_pairs(root, ids)


@app.command("harbor")
def harbor(targets: Targets, admitted: Admitted = False, base_image: BaseImage = None) -> None:
    """One Harbor task folder per side (task.toml, instruction, environment/, solution/, tests/)."""
    from authoring.export.harbor import DEFAULT_BASE, export_pairs

    pairs, out = chosen(targets, admitted)
    folders = export_pairs(pairs, out, base_image or DEFAULT_BASE)
    typer.echo(f"wrote {len(folders)} Harbor task(s) to {out}")


@app.command("inspect")
def inspect(targets: Targets, admitted: Admitted = False) -> None:
    """Harbor task folders plus an Inspect AI task file (one Task per side) that runs them."""
    from authoring.export.inspect_task import export_inspect

    pairs, out = chosen(targets, admitted)
    path = export_inspect(pairs, out)
    typer.echo(f"wrote {path}")
