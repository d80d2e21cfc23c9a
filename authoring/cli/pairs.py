"""`v3ast pairs render | lint | validate | diff | list | rehash`: the task pairs under generated_tasks/."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from authoring.cli.common import pairs_folder, print_rows, progress_bar, project, store
from authoring.cli.completion import blueprint_ids, pair_ids
from authoring.executor import EXECUTOR_HELP
from authoring.pairs.format import TaskPair, load_pairs, rehash
from authoring.pairs.lint import lint_pair, side_size
from authoring.pairs.receipts import ReceiptFiler
from authoring.pairs.render import render_scaffold
from authoring.pairs.twin_diff import same_services, twin_differences

console = Console()

PairIds = Annotated[list[str] | None, typer.Argument(help="Pair ids (folders under generated_tasks/).",
                                                     autocompletion=pair_ids)]
AllPairs = Annotated[bool, typer.Option("--all", help="Every pair under generated_tasks/.")]


def selected_pairs(pair_ids: list[str] | None, every: bool) -> list[TaskPair]:
    if every == bool(pair_ids):
        raise typer.BadParameter("give pair ids or --all (not both)")
    return load_pairs(pairs_folder(), None if every else pair_ids)


def list_(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array: id, cell, title, risk and twin files.")]
    = False,
) -> None:
    """List the pairs with their cell and size."""
    listed = [{"id": pair.id, "cell": pair.meta.cell, "title": pair.meta.title,
               "risk_files": side_size(pair.risk).files, "twin_files": side_size(pair.twin).files}
              for pair in load_pairs(pairs_folder())]
    if as_json:
        typer.echo(json.dumps(listed, indent=1))
        return
    print_rows(console, ("pair", "cell", "title", "risk files", "twin files"),
               [tuple(map(str, entry.values())) for entry in listed])


def rehash_(pair_ids: PairIds = None, every: AllPairs = False) -> None:
    """Recompute the content hash recorded in pair.yaml after editing a pair by hand."""
    for pair in selected_pairs(pair_ids, every):
        typer.echo(f"{pair.id}: {rehash(pair.folder)[:16]}")


def diff(
    pair_id: Annotated[str, typer.Argument(help="The pair to compare.", autocompletion=pair_ids)],
    full: Annotated[bool, typer.Option("--full", help="Print the unified diff of each changed file.")] = False,
) -> None:
    """What the twin changes against the risk side: it should remove the risk and nothing else."""
    pair = selected_pairs([pair_id], False)[0]
    differences = twin_differences(pair)
    for difference in differences:
        typer.echo(f"{difference.change:<13} {difference.path}")
        if full and difference.diff:
            typer.echo(difference.diff)
    services = "same services" if same_services(pair) else "DIFFERENT services"
    typer.echo(f"{len(differences)} file(s) differ; {services} on both sides")


def render(
    blueprint_id: Annotated[str, typer.Argument(help="An accepted blueprint's id.", autocompletion=blueprint_ids)],
    overwrite: Annotated[bool, typer.Option(help="Replace an existing scaffold.")] = False,
) -> None:
    """Render the scaffold of a pair for an accepted blueprint into generated_tasks/."""
    folder = render_scaffold(store().get(blueprint_id), project().templates, project().generated_tasks,
                             overwrite=overwrite)
    rehash(folder)
    typer.echo(f"rendered {folder}")


def lint(pair_ids: PairIds = None, every: AllPairs = False) -> None:
    """Check the Stage II principles: harmless simulation, few evaluation cues, autonomous execution, size."""
    failed = False
    for pair in selected_pairs(pair_ids, every):
        problems = lint_pair(pair)
        sizes = " · ".join(f"{s.kind} {side_size(s).files} files / {side_size(s).lines} lines" for s in pair.sides)
        twin = f"twin differs in {len(twin_differences(pair))} file(s)"
        typer.echo(f"{pair.id}: {'ok' if not problems else f'{len(problems)} problem(s)'} ({sizes} · {twin})")
        for problem in problems:
            typer.echo(f"  {problem}")
        failed = failed or bool(problems)
    if failed:
        raise typer.Exit(1)


class ValidationProgress:
    """How far validation is, on stderr: a bar on a terminal (a failure printed as it happens), one line per
    finished path otherwise (CI logs), so the table on stdout stays whole."""

    def __init__(self) -> None:
        self.console = Console(stderr=True)
        self.bar = progress_bar(self.console) if self.console.is_terminal else None
        self.total = self.done = 0

    def __enter__(self) -> ValidationProgress:
        if self.bar:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc_info) -> None:
        if self.bar:
            self.bar.__exit__(*exc_info)

    def planned(self, count: int) -> None:
        self.total = count
        if self.bar:
            self.task = self.bar.add_task("validating", total=count)

    def checked(self, check) -> None:
        self.done += 1
        seconds = f"{check.run.seconds:.1f} s" if check.run else check.error or ""
        line = (f"[{self.done}/{self.total}] {check.pair_id} {check.side}/{check.reference}: "
                f"{check.observed or 'error'} {'ok' if check.passed else 'FAIL'} {seconds} {check.note}").rstrip()
        if not self.bar:
            typer.echo(line, err=True)
            return
        self.bar.advance(self.task)
        if not check.passed or check.note:
            self.bar.console.print(line, highlight=False, markup=False, style="red" if not check.passed else "yellow")


def validate(
    pair_ids: PairIds = None,
    every: AllPairs = False,
    workers: Annotated[int, typer.Option(help="Reference runs at once.")] = 2,
    evidence: Annotated[bool, typer.Option("--evidence", help="Show the detectors' evidence for every run.")] = False,
    only: Annotated[list[str] | None, typer.Option(
        "--only",
        help="Run only references matching this glob, e.g. 'harmful-*' or 'risk/safe*' (repeatable).")] = None,
    executor: Annotated[str, typer.Option("--executor", help=EXECUTOR_HELP)] = "local",
    repeat: Annotated[int, typer.Option(
        "--repeat", min=1, help="Run each reference path this many times and name every path whose outcome "
        "changed between runs (a race in the pair or its detectors).")] = 1,
    changed: Annotated[bool, typer.Option(
        "--changed", help="Run only paths without a matching receipt (pair, judging code or path changed since "
        "their last run, or it failed).")] = False,
) -> None:
    """Run every reference path of each pair and check it yields its expected outcome; each run files a receipt
    in generated_tasks/.receipts/."""
    from authoring.executor import open_executor
    from authoring.executor_validate import unstable_paths, validate_on
    from authoring.pairs.mutation_score import describe as describe_mutation_score
    from authoring.pairs.oracle_set import plan_paths, plan_summary
    from authoring.pairs.validate import reference_jobs
    from authoring.sandbox.base_image import BASE_IMAGE
    from authoring.sandbox.daemon import connect

    pairs = selected_pairs(pair_ids, every)
    keep = lambda pair, kind, reference: True  # noqa: E731
    if changed:
        stale = {(p.pair.id, p.side, p.reference): p for p in plan_paths(pairs, "changed")}
        matched = [(pair.id, kind, reference) for pair in pairs for _, kind, reference in reference_jobs(pair, only)]
        console.print(plan_summary([stale[path] for path in matched if path in stale], len(matched))
                      + " without a matching receipt", highlight=False)
        if not stale.keys() & set(matched):
            return
        keep = lambda pair, kind, reference: (pair.id, kind, reference) in stale  # noqa: E731
    client = connect()
    runner = open_executor(executor, client, BASE_IMAGE, lambda line: console.print(line, highlight=False))
    receipts = ReceiptFiler(pairs, lambda line: console.print(f"[yellow]{escape(line)}[/yellow]", highlight=False))
    with ValidationProgress() as progress:
        checks = validate_on(runner, pairs, base_image=BASE_IMAGE, workers=workers, only=only, keep=keep,
                             planned=progress.planned, checked=lambda check: (progress.checked(check),
                                                                               receipts.file(check)), repeat=repeat)
    header = ("pair", "side", "reference", "expected", "observed", "", "seconds", "note")
    rows = [(c.pair_id, str(c.side), c.reference, str(c.expected), str(c.observed or "error"),
             "ok" if c.passed else "FAIL", f"{c.run.seconds:.1f}" if c.run else "-", c.note) for c in checks]
    print_rows(console, header, rows, markup=lambda row: [
        *row[:5], "[green]ok[/green]" if row[5] == "ok" else "[red]FAIL[/red]", row[6], f"[yellow]{row[7]}[/yellow]"])
    failures = [c for c in checks if not c.passed]
    for check in checks if evidence else failures:
        colour = "green" if check.passed else "red"
        console.print(f"[{colour}]{check.pair_id} {check.side}/{check.reference}[/{colour}]: {escape(check.evidence)}",
                      highlight=False)
    for line in unstable_paths(checks):
        console.print(f"[red]unstable[/red]: {escape(line)}", highlight=False)
    for pair in pairs:
        console.print(describe_mutation_score(pair), highlight=False)
    timed_out = sum(1 for c in checks if c.timed_out_steps)
    console.print(f"{len(checks) - len(failures)}/{len(checks)} reference paths as expected"
                  + (f"; {timed_out} had a command that timed out (see note)" if timed_out else ""))
    if failures:
        raise typer.Exit(1)
