"""`v3ast report`: each batch's report, and the results report across batches (Table 3, figures, per pair)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from authoring.errors import NotFound
from authoring.project import Project
from calibration.admission import MANIFEST_FILE, Manifest
from calibration.batch import BATCH_FILE, read_settings
from calibration.matrix import load_matrix
from calibration.records_cli import warn
from calibration.report import VIEWER_FOLDER, batch_rows, write_report, write_results

RESULTS_FOLDER = "results"


def report(batch: Annotated[str | None, typer.Option("--batch", help="Only this batch under runs/.")] = None,
           matrix: Annotated[Path | None, typer.Option("--matrix", help="Only this matrix's batches, with its "
                                                       "model and harness names and exclusions.")] = None,
           k: Annotated[int | None, typer.Option("--k", min=1, help="Runs per side (default: the matrix's K, "
                                                 "else the most found).")] = None,
           out: Annotated[Path | None, typer.Option("--out", help="Folder of the results report (default: "
                                                    "runs/results, or runs/<matrix>-results).")] = None) -> None:
    """Write report.md and report.html for each batch, then the results report across them: CAP / ASR@k per
    model × harness, ASR per risk category and per attack source per model, and which combinations compromised
    each pair — tables in Markdown and HTML, figures as static SVG. The HTML links every cell and figure mark to
    the runs behind it in the run viewer (runs/viewer, written by `v3ast records view`)."""
    project = Project.current()
    plan = load_matrix(matrix) if matrix else None
    if plan:
        names = [c.batch for c in plan.combinations() if not c.excluded]
    else:
        names = [batch] if batch else sorted(p.parent.name for p in project.runs.glob(f"*/{BATCH_FILE}"))
    manifest = Manifest(project.calibration / MANIFEST_FILE)
    for name in names:
        if read_settings(project.runs, name) is not None:
            markdown, html = write_report(project.runs, name, manifest)
            print(f"report: {markdown}\nreport: {html}")
        elif batch:
            raise NotFound(f"no batch {batch!r} under {project.runs}")
    found = batch_rows(project.runs, names)
    warn(found.problems)
    if not found.rows and not plan:
        raise NotFound(f"no run records under {project.runs}")
    title = (f"Results — matrix {plan.name}" if plan else f"Results — batch {batch}" if batch
             else "Results — every batch under runs/")
    folder = out or project.runs / (f"{plan.name}-{RESULTS_FOLDER}" if plan else RESULTS_FOLDER)
    viewer = project.runs / VIEWER_FOLDER
    markdown, html = write_results(found.rows, folder, title=title, matrix=plan, k=k or (plan.runs if plan else None),
                                   left_out=found.problems, viewer=viewer)
    print(f"results: {markdown}\nresults: {html}")
    if not (viewer / "index.html").is_file():
        print(f"the HTML reports link into the run viewer at {viewer}: write it with `v3ast records view`")
