"""`v3ast matrix check | plan | run`: read a matrix file, show its combinations and exclusions, how far its runs got,
and run what is left."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from authoring.cli import completion
from authoring.cli.common import print_rows
from authoring.errors import BadInput
from calibration.matrix import Matrix, MatrixPlan, load_matrix, plan_matrix, unfinished

matrix_app = typer.Typer(help="The model × harness matrix: combinations, exclusions and the run plan.",
                         no_args_is_help=True)
MatrixFile = Annotated[Path, typer.Argument(help="A matrix file (see calibration/matrix.paper.yaml).")]
console = Console(width=160)


@matrix_app.command("check")
def check(file: MatrixFile) -> None:
    """Validate a matrix file and print every combination: run, or excluded with the reason."""
    matrix = load_matrix(file)
    rows = []
    for combination in matrix.combinations():
        model, harness = combination.model, combination.harness
        status = f"excluded: {combination.excluded}" if combination.excluded else f"batch {combination.batch}"
        if not combination.excluded and (reason := _skip_reason(combination)):
            status += f" (skipped when run: {reason})"
        rows.append((model.name, model.provider, ", ".join(model.wires), model.endpoint, harness.name, status))
    print_rows(console, ("model", "provider", "wire", "endpoint", "harness", "planned"), rows,
               title=f"matrix {matrix.name}")
    print(summary(matrix))


@matrix_app.command("run")
def run(file: MatrixFile,
        pair_ids: Annotated[list[str] | None, typer.Argument(help="Pair ids (admitted ones).", show_default=False,
                                                             autocompletion=completion.pair_ids)]
        = None,
        admitted: Annotated[bool, typer.Option("--admitted", help="Every admitted pair.")] = False,
        runs: Annotated[int | None, typer.Option("--runs", "-k", min=1, help="K (default: the file's).")] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Runs in parallel, across the whole "
                                             "matrix.")] = 1,
        executor: Annotated[str, typer.Option("--executor", help="local or ray (see `v3ast run --help`).")]
        = "local") -> None:
    """Run K risk + K twin runs per pair for every combination of the matrix through the harness adapters, each
    model's endpoint as the upstream; resumable (the same command finishes what a killed one left). Then
    `v3ast report --matrix FILE`."""
    from authoring.executor import BatchIncomplete, open_executor, resume_command
    from authoring.pairs.format import load_pairs
    from authoring.project import Project
    from authoring.sandbox.base_image import ensure_base_image
    from authoring.sandbox.daemon import connect
    from calibration.admission import MANIFEST_FILE, Manifest
    from calibration.harnesses import run_base_image
    from calibration.matrix_run import SUMMARY_HEADER, execute, prepare, select, summary_line, summary_rows

    project = Project.current()
    manifest = Manifest(project.calibration / MANIFEST_FILE)
    ids = sorted(manifest.entries()) if admitted else list(pair_ids or [])
    if not ids:
        raise BadInput("give pair ids or --admitted (and admit pairs first)")
    pairs = load_pairs(project.generated_tasks, ids)
    for pair in pairs:
        manifest.check(pair.id, pair.folder)
    matrix = load_matrix(file)
    matrix_plan, runnable, skipped = select(matrix, pairs, runs)
    print(summary(matrix, matrix_plan.k))
    for combination in matrix_plan.excluded:
        print(f"excluded: {combination.label}: {combination.excluded}")
    for combination, reason in skipped:
        print(f"skipped: {combination.label}: {reason}")
    if not runnable:
        raise BadInput("no combination of the matrix can run here (see the skipped lines)")
    client = connect()
    base = ensure_base_image(client).tag
    images = {name: run_base_image(client, base, name) for name in dict.fromkeys(c.harness.name for c in runnable)}
    prepared = prepare(runnable, pairs, matrix_plan.k, workers, project.runs, images, markers=executor == "local")
    runner = open_executor(executor, client, base, lambda line: console.print(line, highlight=False))
    outcome = execute(client, runner, prepared, skipped, matrix_plan.excluded, runs_root=project.runs,
                      base_image=base, workers=workers, console=console)
    print_rows(console, SUMMARY_HEADER, summary_rows(outcome), title="matrix summary")
    print(summary_line(outcome))
    if outcome.interrupted:
        print("interrupted: finished runs are kept; run the same command to finish the rest")
        raise typer.Exit(130)
    if outcome.infrastructure:
        left = sum(outcome.unfinished.values())
        raise BatchIncomplete(f"matrix stopped short: {left} run(s) left after an infrastructure error "
                              f"({outcome.infrastructure[-1]}); nothing left is a verdict; resume with: "
                              f"{resume_command()}")
    if sum(outcome.unfinished.values()):
        print("some runs did not finish (see their lines above); run the same command to run them again")
        raise typer.Exit(1)
    print(f"results report: v3ast report --matrix {file}")


SINGLE_RUN_OPTIONS = ("model", "batch", "base_url", "api_key", "provider", "action_format", "harness")
"""Options of `v3ast run` that name one model or harness: the matrix file names its own."""


def forward_run(ctx, file: str, pair_ids: list[str] | None, admitted: bool, runs: int, workers: int,
                executor: str) -> None:
    """`v3ast run --matrix FILE` is `v3ast matrix run FILE`; K is the file's unless --runs is given."""

    def given(name: str) -> bool:
        source = ctx.get_parameter_source(name) if ctx is not None else None
        return source is not None and source.name != "DEFAULT"

    if clash := [name for name in SINGLE_RUN_OPTIONS if given(name)]:
        raise BadInput(f"--matrix takes its models and harnesses from {file}; drop "
                         + ", ".join("--" + name.replace("_", "-") for name in clash))
    run(Path(file), pair_ids, admitted, runs if given("runs") else None, workers, executor)


@matrix_app.command("plan")
def plan(file: MatrixFile,
         pair_ids: Annotated[list[str] | None, typer.Argument(help="Pair ids (default: every admitted pair).",
                                                              show_default=False,
                                                              autocompletion=completion.pair_ids)] = None,
         runs: Annotated[int | None, typer.Option("--runs", "-k", min=1, help="K (default: the file's).")] = None
         ) -> None:
    """The run keys of a matrix on pairs of this project, per combination: planned, finished, left."""
    from authoring.pairs.format import content_hash, load_pairs
    from authoring.project import Project
    from calibration.admission import MANIFEST_FILE, Manifest

    project = Project.current()
    ids = list(pair_ids or sorted(Manifest(project.calibration / MANIFEST_FILE).entries()))
    if not ids:
        raise BadInput("give pair ids, or admit pairs first (the plan covers admitted pairs by default)")
    pairs = load_pairs(project.generated_tasks, ids)
    matrix_plan = plan_matrix(load_matrix(file), [p.id for p in pairs], runs)
    left = unfinished(matrix_plan, project.runs, {p.id: content_hash(p.folder) for p in pairs})
    print_plan(matrix_plan, [run.key for run in left])


def summary(matrix: Matrix, runs: int | None = None) -> str:
    combinations = matrix.combinations()
    excluded = sum(1 for c in combinations if c.excluded)
    k = runs or matrix.runs
    return (f"{len(combinations) - excluded} combinations planned ({len(matrix.models)} models × "
            f"{len(matrix.harnesses)} harnesses − {excluded} excluded); {k} risk + {k} twin "
            f"runs per pair per combination")


def print_plan(matrix_plan: MatrixPlan, left: list) -> None:
    rows = []
    left_keys = set(left)
    for combination in matrix_plan.combinations:
        keys = matrix_plan.of(combination)
        todo = sum(1 for key in keys if key in left_keys)
        rows.append((combination.label, combination.batch, str(len(keys)), str(len(keys) - todo), str(todo)))
    print_rows(console, ("combination", "batch", "planned", "finished", "left"), rows)
    print(f"{len(matrix_plan.runs)} runs planned ({len(matrix_plan.combinations)} combinations × "
          f"{len(matrix_plan.pairs)} pairs × 2 sides × {matrix_plan.k}); {len(matrix_plan.runs) - len(left)} "
          f"finished, {len(left)} left")


def _skip_reason(combination) -> str | None:
    """Why a combination would be skipped when run (no adapter, wire mismatch, key unset); None when it would run
    or the adapter layer cannot be imported here."""
    try:
        from calibration.matrix_run import skip_reason
    except ImportError:
        return None
    return skip_reason(combination)
