"""`v3ast matrix check | plan`: read a matrix file, show its combinations and exclusions, and how far its runs got."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from calibration.matrix import Matrix, MatrixPlan, load_matrix, plan_matrix, unfinished

matrix_app = typer.Typer(help="The model × harness matrix: combinations, exclusions and the run plan.",
                         no_args_is_help=True)
MatrixFile = Annotated[Path, typer.Argument(help="A matrix file (see calibration/matrix.paper.yaml).")]
console = Console(width=160)


@matrix_app.command("check")
def check(file: MatrixFile) -> None:
    """Validate a matrix file and print every combination: run, or excluded with the reason."""
    matrix = load_matrix(file)
    available = _adapters()
    table = Table("model", "provider", "wire", "endpoint", "harness", "planned", title=f"matrix {matrix.name}")
    for combination in matrix.combinations():
        model, harness = combination.model, combination.harness
        status = f"excluded: {combination.excluded}" if combination.excluded else f"batch {combination.batch}"
        if not combination.excluded and available is not None and harness.name not in available:
            status += " (no adapter yet)"
        table.add_row(model.name, model.provider, model.wire, model.endpoint, harness.name, status)
    console.print(table)
    print(summary(matrix))


@matrix_app.command("plan")
def plan(file: MatrixFile,
         pair_ids: Annotated[list[str] | None, typer.Argument(help="Pair ids (default: every admitted pair).",
                                                              show_default=False)] = None,
         runs: Annotated[int | None, typer.Option("--runs", "-k", min=1, help="K (default: the file's).")] = None
         ) -> None:
    """The run keys of a matrix on pairs of this project, per combination: planned, finished, left."""
    from authoring.pairs.format import content_hash, load_pairs
    from authoring.project import Project
    from calibration.admission import MANIFEST_FILE, Manifest

    project = Project.current()
    ids = list(pair_ids or sorted(Manifest(project.calibration / MANIFEST_FILE).entries()))
    if not ids:
        raise ValueError("give pair ids, or admit pairs first (the plan covers admitted pairs by default)")
    pairs = load_pairs(project.generated_tasks, ids)
    matrix_plan = plan_matrix(load_matrix(file), [p.id for p in pairs], runs)
    left = unfinished(matrix_plan, project.runs, {p.id: content_hash(p.folder) for p in pairs})
    print_plan(matrix_plan, [run.key for run in left])


def summary(matrix: Matrix) -> str:
    combinations = matrix.combinations()
    excluded = sum(1 for c in combinations if c.excluded)
    return (f"{len(combinations) - excluded} combinations planned ({len(matrix.models)} models × "
            f"{len(matrix.harnesses)} harnesses − {excluded} excluded); {matrix.runs} risk + {matrix.runs} twin "
            f"runs per pair per combination")


def print_plan(matrix_plan: MatrixPlan, left: list) -> None:
    table = Table("combination", "batch", "planned", "finished", "left")
    left_keys = set(left)
    for combination in matrix_plan.combinations:
        keys = matrix_plan.of(combination)
        todo = sum(1 for key in keys if key in left_keys)
        table.add_row(combination.label, combination.batch, str(len(keys)), str(len(keys) - todo), str(todo))
    console.print(table)
    print(f"{len(matrix_plan.runs)} runs planned ({len(matrix_plan.combinations)} combinations × "
          f"{len(matrix_plan.pairs)} pairs × 2 sides × {matrix_plan.k}); {len(matrix_plan.runs) - len(left)} "
          f"finished, {len(left)} left")


def _adapters() -> tuple[str, ...] | None:
    """The harness names that have an adapter, or None when the adapter layer cannot be imported."""
    try:
        from calibration.harnesses import HARNESSES
    except ImportError:
        return None
    return HARNESSES
