"""Reports, Markdown and HTML, read from outcome indexes: one per batch (calibration verdicts and failures, with
one record head for the harness settings), and the results report across batches — the paper's Table 3, its
figures (static SVG, `calibration/figures.py`) and which combinations compromised each pair. Every table cell and
figure mark links to the runs behind it in the run viewer (`v3ast records view`, by default in runs/viewer)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from authoring.errors import NotFound
from authoring.outcomes import Outcome
from authoring.taxonomy import RISKS
from calibration.admission import Manifest, pair_verdicts
from calibration.batch import read_settings
from calibration.figures import FIGURES, figures
from calibration.matrix import Matrix
from calibration.metrics import metrics
from calibration.outcome_index import OutcomeIndex, OutcomeRow, Reconciled, records_folders
from calibration.records import read_head, records_folder
from calibration.results import PairStatus, Results, labels_of_matrix, labels_of_rows, results
from calibration.viewer_links import ViewerLinks

TEMPLATES = Path(__file__).parent / "templates"
VIEWER_FOLDER = "viewer"
EXPECTED = {"risk": Outcome.COMPROMISED, "twin": Outcome.CAPABLE}


def model_description(head: dict[str, Any] | None) -> str:
    if not head:
        return "?"
    if (head.get("policy") or {}).get("scripted"):
        return "scripted reference policies (no model)"
    model = (head.get("harness") or {}).get("model") or {}
    return f"{model.get('provider', '?')}/{model.get('model_name', '?')} at {model.get('base_url', '?')}"


def record_link(row: OutcomeRow) -> str:
    return f"records/{row.path}"


def report_context(runs_root: Path, batch: str, manifest: Manifest, viewer: Path | None = None) -> dict[str, Any]:
    settings = read_settings(runs_root, batch)
    if settings is None:
        raise NotFound(f"no batch {batch!r} under {runs_root}")
    folder = records_folder(runs_root, batch)
    found = OutcomeIndex(folder).rows() if folder.is_dir() else Reconciled()
    runs = found.rows
    verdicts = pair_verdicts([row.as_record() for row in runs], settings.runs)
    admitted = manifest.entries()
    rows = []
    for pair, verdict in verdicts.items():
        entry = admitted.get(pair)
        admission = ("admitted" if entry and (entry.content_hash, entry.judging) == (verdict.content_hash,
                                                                                  verdict.judging)
                     else "rejected" if verdict.verdict == "fail" else "not admitted")
        justification = entry.justification if entry else ""
        rows.append(verdict.model_dump() | {"admission": admission, "justification": justification})
    cells = []
    for risk in RISKS:
        counts = []
        for source in ("S1", "S2"):
            in_cell = [r for r in rows if r["cell"] == f"{risk}-{source}"]
            passed = sum(1 for r in in_cell if r["verdict"] == "pass")
            counts.append(f"{passed}/{len(in_cell)}" if in_cell else "—")
        cells.append((risk, *counts))
    view = ViewerLinks.between(Path(runs_root) / batch, viewer or Path(runs_root) / VIEWER_FOLDER)
    failures = [
        {"pair": r.pair, "side": r.side, "index": r.run, "outcome": r.outcome, "link": record_link(r),
         "page": view.run(r.batch, r.pair, r.side, r.run), "evidence": r.evidence_lines()}
        for r in runs if r.outcome != EXPECTED[r.side]
    ]
    overall = next((m for m in metrics(runs, settings.runs) if m.scope == "all"), None) if runs else None
    summary = {"cap": _percent(overall.cap if overall else None), "asr": _percent(overall.asr if overall else None)}
    head = read_head(folder / runs[0].path) if runs else None
    return {"batch": batch, "settings": settings, "scripted": settings.scripted, "rows": rows, "cells": cells,
            "failures": failures, "summary": summary, "harness": ((head or {}).get("harness")) or {},
            "model": model_description(head), "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "links": [(record_link(r), view.run(r.batch, r.pair, r.side, r.run)) for r in runs],
            "left_out": found.problems, "view": view}


def write_report(runs_root: Path, batch: str, manifest: Manifest, viewer: Path | None = None) -> tuple[Path, Path]:
    context = report_context(runs_root, batch, manifest, viewer)
    folder = Path(runs_root) / batch
    paths = folder / "report.md", folder / "report.html"
    markdown, html = _environments()
    paths[0].write_text(markdown.get_template("report.md.j2").render(**context), encoding="utf-8")
    paths[1].write_text(html.get_template("report.html.j2").render(**context), encoding="utf-8")
    return paths


def batch_rows(runs_root: Path, batches: list[str] | None = None) -> Reconciled:
    """The outcome-index rows of the named batches (all under runs_root when None), and what was left out."""
    if batches is None:
        folders = records_folders(Path(runs_root))[0] if Path(runs_root).is_dir() else []
    else:
        folders = [f for f in (records_folder(runs_root, name) for name in batches) if f.is_dir()]
    found = Reconciled()
    for folder in folders:
        part = OutcomeIndex(folder).rows()
        found.rows += part.rows
        found.problems += part.problems
    return found


def results_context(rows: list[OutcomeRow], *, title: str, matrix: Matrix | None = None, k: int | None = None,
                    left_out: list[str] = ()) -> dict[str, Any]:
    found = results(rows, k=k, matrix=matrix)
    table = []
    for (model, harness), cell in found.cells.items():
        m = cell.metrics
        table.append({"model": model, "harness": harness, "excluded": cell.excluded, "metrics": m,
                      "cap": _percent(m.cap) if m else "", "asr": _percent(m.asr) if m else ""})
    pairs = []
    for line in found.pairs:
        compromised = [f"{model} × {harness} ({line.compromised_runs[model, harness]}/{_k_of(found, model, harness)})"
                       for model, harness in line.by(PairStatus.COMPROMISED)]
        unresolved = line.by(PairStatus.UNRESOLVED)
        pairs.append({"pair": line.pair, "cell": line.cell, "compromised": compromised,
                      "compromised_by": list(zip(compromised, line.by(PairStatus.COMPROMISED), strict=True)),
                      "unresolved": [f"{m} × {h}" for m, h in unresolved],
                      "unresolved_by": [(f"{m} × {h}", (m, h)) for m, h in unresolved],
                      "counts": {status: len(line.by(status)) for status in (
                          PairStatus.COMPROMISED, PairStatus.SAFE, PairStatus.UNRESOLVED, PairStatus.NOT_ELIGIBLE,
                          PairStatus.NOT_RUN, PairStatus.EXCLUDED)}})
    return {"title": title, "k": found.k, "results": found, "table": table, "pairs": pairs,
            "categories": found.categories, "sources": ("S1", "S2"),
            "by_category": {m: {r: _pooled(p) for r, p in scopes.items()} for m, scopes in found.by_category.items()},
            "by_source": {m: {s: _pooled(p) for s, p in scopes.items()} for m, scopes in found.by_source.items()},
            "overall": {m: _pooled(p) for m, p in found.overall.items()},
            "scripted": any(row.model.startswith("scripted:") for row in rows), "left_out": list(left_out),
            "figures": figures(found), "captions": FIGURES, "statuses": PairStatus}


def write_results(rows: list[OutcomeRow], folder: Path, *, title: str, matrix: Matrix | None = None,
                  k: int | None = None, left_out: list[str] = (), viewer: Path | None = None) -> tuple[Path, Path]:
    """report.md, report.html and figures/*.svg in `folder`; the same rows always give the same bytes. The HTML
    links into the run viewer at `viewer` (default: `viewer/` beside `folder`); its figures are drawn a second
    time for that, so the SVG files and the Markdown stay free of links that only resolve from the HTML."""
    context = results_context(rows, title=title, matrix=matrix, k=k, left_out=left_out)
    folder = Path(folder)
    (folder / "figures").mkdir(parents=True, exist_ok=True)
    for name, svg in context["figures"].items():
        (folder / "figures" / f"{name}.svg").write_text(svg, encoding="utf-8")
    paths = folder / "report.md", folder / "report.html"
    markdown, html = _environments()
    paths[0].write_text(markdown.get_template("results.md.j2").render(**context), encoding="utf-8")
    links = ViewerLinks.between(folder, viewer or folder.parent / VIEWER_FOLDER, _batches(rows, matrix))
    context["view"] = links
    context["inline"] = {name: _inline(svg) for name, svg in figures(context["results"], links).items()}
    paths[1].write_text(html.get_template("results.html.j2").render(**context), encoding="utf-8")
    return paths


def _batches(rows: list[OutcomeRow], matrix: Matrix | None) -> dict[tuple[str, str], set[str]]:
    """(model, harness) as the results name them → the batches of their runs."""
    labeller = labels_of_matrix(matrix) if matrix else labels_of_rows
    found: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        if label := labeller(row):
            found.setdefault(label, set()).add(row.batch)
    for combination in matrix.combinations() if matrix else ():
        found.setdefault((combination.model.name, combination.harness.name), set()).add(combination.batch)
    return found


def _environments() -> tuple[Environment, Environment]:
    markdown = Environment(loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined, autoescape=False)
    markdown.finalize = _table_safe
    html = Environment(loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined,
                       autoescape=select_autoescape(["html", "j2"]))
    for environment in (markdown, html):
        environment.filters["pooled"] = _pooled_text
    return markdown, html


def _inline(svg: str) -> str:
    """The SVG element alone (no XML declaration or doctype), for placing in the HTML page."""
    return svg[svg.index("<svg"):]


def _pooled(pooled) -> dict[str, Any]:
    return {"asr": _percent(pooled.asr), "compromised": pooled.compromised, "judged": pooled.compromised + pooled.safe,
            "unresolved": pooled.unresolved, "eligible": pooled.eligible}


def _pooled_text(pooled: dict[str, Any] | None) -> str:
    """`67% (4/6 · 1 unres.)`: ASR, COMPROMISED / judged, and UNRESOLVED beside it; — where nothing was judged."""
    if not pooled or (not pooled["judged"] and not pooled["unresolved"]):
        return "—"
    unresolved = f" · {pooled['unresolved']} unres." if pooled["unresolved"] else ""
    return f"{pooled['asr']} ({pooled['compromised']}/{pooled['judged']}{unresolved})"


def _k_of(found: Results, model: str, harness: str) -> int:
    return found.cells[model, harness].metrics.k


def _table_safe(value: Any) -> Any:
    return " ".join(value.replace("|", "\\|").split()) if isinstance(value, str) else value


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"
