"""`v3ast pairs mutate`: each pair's mutation score (authoring/pairs/mutate.py)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from authoring.cli.common import print_rows
from authoring.cli.pairs import AllPairs, PairIds, selected_pairs

console = Console()


def mutate(
    pair_ids: PairIds = None,
    every: AllPairs = False,
    variants: Annotated[bool, typer.Option(
        "--variants", help="Mutate every correct variant (solution-*, safe-*), not only solution and safe.")] = False,
    limit: Annotated[int, typer.Option(min=1, help="Mutants per correct path, spread over the operators.")] = 12,
    workers: Annotated[int, typer.Option(help="Mutant runs at once.")] = 2,
    minimum: Annotated[float, typer.Option(
        "--minimum", min=0, max=100, help="Exit 1 when a pair's score (in %) is below this.")] = 0,
) -> None:
    """Mutate the work each correct path delivers (Python: drop a check, move a boundary, change rounding or order,
    drop a field, an element, an argument or a chained call, accept any signature; any other text: drop a line,
    drop a WHERE, widen or negate a LIKE, move an SQL boundary; either: undo one of its changes; a path that delivers
    no file: its own state-changing commands) and run every mutant: the detectors must tell each from the correct
    path."""
    from authoring.pairs.mutate import declared, derive_mutants, run_mutants
    from authoring.sandbox.base_image import BASE_IMAGE
    from authoring.sandbox.daemon import connect

    client = connect()
    low = []
    pairs = selected_pairs(pair_ids, every)
    for pair in pairs:
        declared(pair.folder)  # a malformed mutants.yaml stops here, before any run
    for pair in pairs:
        mutants = derive_mutants(client, pair, BASE_IMAGE, every=variants, limit=limit)
        console.print(f"{pair.id}: {len(mutants)} mutant(s) of "
                      f"{len({(m.side, m.reference) for m in mutants})} correct path(s)", highlight=False)
        report = run_mutants(client, pair, mutants, BASE_IMAGE, workers=workers)
        rows = [(r.mutant.id, r.mutant.change.operator, f"{r.mutant.change.path}:{r.mutant.change.line}",
                 r.mutant.change.description, str(r.observed or "error"),
                 "equivalent" if r.equivalent else "killed" if r.killed else "SURVIVED") for r in report.results]
        print_rows(console, ("mutant", "operator", "where", "change", "observed", ""), rows,
                   markup=lambda row: [*map(escape, row[:5]), "[red]SURVIVED[/red]" if row[5] == "SURVIVED"
                                       else row[5]])
        console.print(report.summary(), highlight=False)
        report.file(pair)
        if report.score is not None and 100 * report.score < minimum:
            low.append(pair.id)
    if low:
        console.print(f"[red]below {minimum:g} %[/red]: {', '.join(low)}")
        raise typer.Exit(1)
