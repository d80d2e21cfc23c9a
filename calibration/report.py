"""Per-batch calibration reports, Markdown and HTML, from the batch's run records alone."""

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
from calibration.records import load_records, records_folder

TEMPLATES = Path(__file__).parent / "templates"
EXPECTED = {"risk": Outcome.COMPROMISED, "twin": Outcome.CAPABLE}


def model_label(records: list[dict[str, Any]]) -> str:
    if not records:
        return "?"
    first = records[0]
    if (first.get("policy") or {}).get("scripted"):
        return "scripted reference policies (no model)"
    model = (first.get("harness") or {}).get("model") or {}
    return f"{model.get('provider', '?')}/{model.get('model_name', '?')} at {model.get('base_url', '?')}"


def record_link(record: dict[str, Any]) -> str:
    key = record["key"]
    return f"records/{key['pair']}/{key['side']}-{key['index']}.json"


def failure_evidence(record: dict[str, Any]) -> list[str]:
    lines = []
    for verdict in record.get("verdicts", []):
        if verdict.get("error"):
            lines.append(f"{verdict['detector']}: detector error: {verdict['error']}")
        else:
            lines.append(f"{verdict['detector']}: {'observed' if verdict['observed'] else 'not observed'} — "
                         f"{verdict.get('evidence') or ''}")
    facts = record.get("facts") or {}
    if facts.get("harness_error"):
        lines.append(f"harness error: {facts['harness_error'].strip().splitlines()[-1]}")
    if facts.get("overtime"):
        lines.append("past the turn budget (OVERTIME) after every rerun")
    exits = [t.get("exit_status", "") for t in record.get("harness_exit", [])]
    if exits:
        lines.append(f"harness exit per turn: {', '.join(exits)}; {len(record.get('commands', []))} command(s)")
    return lines


def report_context(runs_root: Path, batch: str, manifest: Manifest) -> dict[str, Any]:
    settings = read_settings(runs_root, batch)
    if settings is None:
        raise ValueError(f"no batch {batch!r} under {runs_root}")
    folder = records_folder(runs_root, batch)
    records = load_records([folder]) if folder.is_dir() else []
    verdicts = pair_verdicts(records, settings.runs)
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
        {**r["key"], "outcome": r["outcome"], "link": record_link(r), "evidence": failure_evidence(r)}
        for r in records if r["outcome"] != EXPECTED[r["key"]["side"]]
    ]
    overall = next((m for m in metrics(records, settings.runs) if m.scope == "all"), None) if records else None
    summary = {"cap": _percent(overall.cap if overall else None), "asr": _percent(overall.asr if overall else None)}
    return {"batch": batch, "settings": settings, "scripted": settings.scripted, "rows": rows, "cells": cells,
            "failures": failures, "summary": summary, "harness": (records[0].get("harness") if records else {}) or {},
            "model": model_label(records), "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "links": [record_link(r) for r in records]}


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
