"""`v3ast blueprints …`: list, show, check and decide."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from authoring.blueprint import BLUEPRINT_FIELDS
from authoring.blueprint_files import BlueprintFileError, read_blueprint
from authoring.cli.common import default_actor, print_rows, store, store_folder
from authoring.cli.completion import bands, blueprint_ids, decisions, statuses
from authoring.status_names import parse_band, parse_status
from authoring.store import Filter
from authoring.taxonomy import CELLS, parse_cell

app = typer.Typer(help="List, inspect, validate and decide on blueprints.", no_args_is_help=True)
console = Console()


def _reading(parse: Callable[[str], object]) -> Callable[[str | None], object]:
    """A typer callback that reads an option with one of the parsers the reviewer app uses too."""

    def read(value: str | None) -> object:
        if value is None:
            return None
        try:
            return parse(value)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None

    return read


CellOption = Annotated[str | None, typer.Option(
    help="Only this cell (R5-S2), risk (R5) or source (S2), in any case.", callback=_reading(parse_cell))]
StatusOption = Annotated[str | None, typer.Option(
    help="Only this status; any unique part of its name (review, acc).", callback=_reading(parse_status),
    autocompletion=statuses)]
BandOption = Annotated[str | None, typer.Option(
    help="Only this rubric band: kept, review, dropped (any unique part).", callback=_reading(parse_band),
    autocompletion=bands)]


@app.command("list")
def list_(
    cell: CellOption = None,
    status: StatusOption = None,
    band: BandOption = None,
    text: Annotated[str | None, typer.Option(help="Only those containing this text.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array of whole blueprints.")] = False,
) -> None:
    """List blueprints, filtered by cell, status, rubric band or text."""
    blueprints, problems = store().load_all()
    where = Filter(cell=cell, status=status, band=band, text=text)
    if as_json:
        typer.echo(json.dumps([b.model_dump(mode="json") for b in blueprints if where.matches(b)], indent=1))
        for line in problems:
            typer.echo(f"skipped: {line}", err=True)
        return
    rows = [
        (b.id, b.taxonomy_id, str(b.status), "" if b.total_score is None else f"{b.total_score}/30", b.title)
        for b in blueprints if where.matches(b)
    ]
    print_rows(console, ("id", "cell", "status", "score", "title"), rows)
    for line in problems:
        typer.echo(f"skipped: {line}", err=True)


@app.command()
def show(
    blueprint_id: Annotated[str, typer.Argument(help="The blueprint's id.", autocompletion=blueprint_ids)],
    as_json: Annotated[bool, typer.Option("--json", help="The blueprint and its git history as JSON.")] = False,
) -> None:
    """Show one blueprint: its eight fields, reviews, decisions and history."""
    the_store = store()
    blueprint = the_store.get(blueprint_id)
    if as_json:
        history = [{"sha": e.sha, "author": e.author, "when": e.when.isoformat(), "message": e.message}
                   for e in the_store.history(blueprint_id)]
        typer.echo(json.dumps({**blueprint.model_dump(mode="json"), "history": history}, indent=1))
        return
    console.print(f"[bold]{blueprint.id}[/bold] — {escape(blueprint.title)}")
    console.print(f"cell {blueprint.taxonomy_id} · status {blueprint.status} · "
                  f"proposed by {escape(blueprint.provenance.model)}")
    for field in BLUEPRINT_FIELDS:
        console.print(f"\n[bold]{field.replace('_', ' ')}[/bold]\n{escape(getattr(blueprint, field))}", highlight=False)
    for review in blueprint.reviews:
        console.print(f"\n[bold]review[/bold] by {escape(review.reviewer)}: {review.total}/30 → {review.band}")
        for score in review.scores:
            console.print(escape(f"  {score.dimension}: {score.score} — {score.rationale}"), highlight=False)
    for decision in blueprint.decisions:
        console.print(f"\n[bold]decision[/bold] {decision.old_status} → {decision.new_status} "
                      f"by {escape(decision.actor)}: {escape(decision.reason)}")
    console.print("\n[bold]history[/bold]")
    for entry in the_store.history(blueprint_id):
        console.print(f"  {entry.sha[:10]} {entry.when:%Y-%m-%d %H:%M} {escape(entry.author)}: "
                      f"{escape(entry.message.splitlines()[0])}", highlight=False)


def blueprint_files(folder: Path) -> list[Path]:
    """Every YAML file under `folder`, at any depth, except the store's own data beside the cell folders
    (rubric.yaml, sources/) — recognised as such wherever the folder sits in the store."""
    def own_data(path: Path) -> bool:
        inside = path.relative_to(folder).parts[:-1]
        return "sources" in (folder.name, *inside) or (path.name == "rubric.yaml" and path.parent.name not in CELLS)

    return [path for path in sorted(folder.rglob("*.yaml")) if not own_data(path)]


@app.command()
def check(
    paths: Annotated[list[Path] | None, typer.Argument(help="Files or folders (searched at every depth); "
                                                                 "default: the whole store.")] = None,
) -> None:
    """Validate blueprint files: one line per problem, exit 1 if any."""
    files: list[Path] = []
    for path in paths or [store_folder()]:
        if not path.exists():
            raise typer.BadParameter(f"no such file or folder: {path}", param_hint="PATHS")
        files.extend(blueprint_files(path) if path.is_dir() else [path])
    problems = []
    for path in files:
        try:
            read_blueprint(path)
        except BlueprintFileError as error:
            problems.extend(error.problems)
    for line in problems:
        typer.echo(line)
    typer.echo(f"{len(files)} file(s) checked, {len(problems)} problem(s)", err=True)
    if problems:
        raise typer.Exit(1)


@app.command()
def decide(
    blueprint_id: Annotated[str, typer.Argument(help="The blueprint's id.", autocompletion=blueprint_ids)],
    status: Annotated[str, typer.Option(help="accepted, rejected or needs_review (any unique part: acc, rej, "
                                             "review).", callback=_reading(parse_status),
                                        autocompletion=decisions)],
    reason: Annotated[str, typer.Option(help="Why; recorded in the blueprint and the git commit. Required when the "
                                             "decision goes against the rubric's band or another person's "
                                             "decision.")] = "",
    actor: Annotated[str | None, typer.Option(help="Who decides; default: git user.name.")] = None,
) -> None:
    """Record a human decision: a status change with actor and reason, committed to git."""
    if actor is not None and not actor.strip():
        raise typer.BadParameter("an actor needs a name", param_hint="--actor")
    who = actor or default_actor()
    updated = store().decide(blueprint_id, status, actor=who, reason=reason.strip())
    typer.echo(f"{updated.id}: {updated.decisions[-1].old_status} → {updated.status} by {who}")
