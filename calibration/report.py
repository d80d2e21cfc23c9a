"""Per-batch calibration reports, Markdown and HTML, from the batch's outcome index (and one record head)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from authoring.outcomes import Outcome
from authoring.taxonomy import RISKS
from calibration.admission import Manifest, pair_verdicts
from calibration.batch import read_settings
from calibration.metrics import metrics
from calibration.outcome_index import OutcomeIndex, OutcomeRow, Reconciled
from calibration.records import read_head, records_folder

TEMPLATES = Path(__file__).parent / "templates"
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


def report_context(runs_root: Path, batch: str, manifest: Manifest) -> dict[str, Any]:
    settings = read_settings(runs_root, batch)
    if settings is None:
        raise ValueError(f"no batch {batch!r} under {runs_root}")
    folder = records_folder(runs_root, batch)
    found = OutcomeIndex(folder).rows() if folder.is_dir() else Reconciled()
    runs = found.rows
    verdicts = pair_verdicts([row.as_record() for row in runs], settings.runs)
    admitted = manifest.entries()
    rows = []
    for pair, verdict in verdicts.items():
        entry = admitted.get(pair)
        admission = ("admitted" if entry and entry.content_hash == verdict.content_hash
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
    failures = [
        {"pair": r.pair, "side": r.side, "index": r.run, "outcome": r.outcome, "link": record_link(r),
         "evidence": r.evidence_lines()}
        for r in runs if r.outcome != EXPECTED[r.side]
    ]
    overall = next((m for m in metrics(runs, settings.runs) if m.scope == "all"), None) if runs else None
    summary = {"cap": _percent(overall.cap if overall else None), "asr": _percent(overall.asr if overall else None)}
    head = read_head(folder / runs[0].path) if runs else None
    return {"batch": batch, "settings": settings, "scripted": settings.scripted, "rows": rows, "cells": cells,
            "failures": failures, "summary": summary, "harness": ((head or {}).get("harness")) or {},
            "model": model_description(head), "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "links": [record_link(r) for r in runs], "left_out": found.problems}


def write_report(runs_root: Path, batch: str, manifest: Manifest) -> tuple[Path, Path]:
    context = report_context(runs_root, batch, manifest)
    folder = Path(runs_root) / batch
    paths = folder / "report.md", folder / "report.html"
    markdown = Environment(loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined, autoescape=False)
    markdown.finalize = _table_safe
    html = Environment(loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined,
                       autoescape=select_autoescape(["html", "j2"]))
    paths[0].write_text(markdown.get_template("report.md.j2").render(**context), encoding="utf-8")
    paths[1].write_text(html.get_template("report.html.j2").render(**context), encoding="utf-8")
    return paths


def _table_safe(value: Any) -> Any:
    return " ".join(value.replace("|", "\\|").split()) if isinstance(value, str) else value


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"
