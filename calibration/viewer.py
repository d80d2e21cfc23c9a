"""The run viewer: a folder of static pages — an index over every run given, a page per run and a page per pair and
batch — that opens from `file://` with no server and fetches nothing (each page's Content-Security-Policy forbids
it). Run pages are rendered again only when their record changed (`.pages.json` keeps each page's record digest
and the renderer's), so a viewer over a growing batch is refreshed in seconds.

Records are scrubbed when written; each page is scrubbed again, of the secrets in this process's environment, so
a key that leaked into a record written before it was a secret does not reach the HTML either.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from authoring.atomic import write_atomically
from calibration import run_story
from calibration.admission import PairVerdict, pair_verdicts
from calibration.records import harness_label, model_label, read_head, read_record, scrub, secret_values
from calibration.viewer_index import (
    Found,
    Source,
    batch_settings,
    calibration_verdicts,
    index_data,
    index_script,
    page_path,
    pair_path,
)

TEMPLATES = Path(__file__).parent / "templates"
MANIFEST = ".pages.json"
FILTERS = (("batch", "batch"), ("model", "model"), ("harness", "harness"), ("pair", "pair"), ("cell", "cell"),
           ("side", "side"), ("outcome", "outcome"), ("reason", "UNRESOLVED reason"), ("calibration", "calibration"),
           ("eligible", "in E (twin CAPABLE in all k)"))


@dataclass
class Written:
    folder: Path
    runs: int = 0
    rendered: int = 0
    """Run pages rendered (the others were current)."""
    problems: list[str] = field(default_factory=list)


def environment() -> Environment:
    html = Environment(loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined,
                       autoescape=select_autoescape(["html", "j2"]))
    html.filters["urlencode"] = lambda value: quote(str(value), safe="")
    return html


def renderer_digest() -> str:
    """Changes whenever a template or the code that shapes a page changes, so every page is rendered again."""
    parts = sorted((TEMPLATES / "viewer").iterdir()) + [Path(run_story.__file__), Path(__file__)]
    return hashlib.sha256(b"".join(p.read_bytes() for p in parts)).hexdigest()


def write_index(found: Found, folder: Path, *, title: str = "Run records") -> None:
    """index.html and index-data.js: every run's outcome-index row, nothing read from the records themselves."""
    html, secrets = environment(), secret_values()
    data = scrub(index_data(found.sources, calibration_verdicts(found.sources)), secrets)
    write_atomically(folder / "index-data.js", index_script(data))
    context = {"title": title, "runs": len(found.sources), "batches": len(data["values"]["batch"]),
               "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "filters": FILTERS,
               "problems": scrub(found.problems, secrets)}
    write_atomically(folder / "index.html", html.get_template("viewer/index.html.j2").render(**context))


def write_viewer(found: Found, folder: Path, *, title: str = "Run records") -> Written:
    """The index, each run's page (those whose record changed since the last write) and each pair's page."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_index(found, folder, title=title)
    html, secrets = environment(), secret_values()
    result = Written(folder, runs=len(found.sources), problems=list(found.problems))
    by_pair: dict[tuple[str, str], list[Source]] = defaultdict(list)
    for source in found.sources:
        by_pair[source.row.batch, source.row.pair].append(source)
    manifest_path = folder / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    renderer = renderer_digest()
    if manifest.get("renderer") != renderer:
        manifest = {"renderer": renderer, "pages": {}}
    template = html.get_template("viewer/run.html.j2")
    for (batch, pair), members in by_pair.items():
        for source in members:
            page, stamp = page_path(source.row), _stamp(source)
            if manifest["pages"].get(page) == stamp and (folder / page).is_file():
                continue
            record = read_record(source.record)
            if record is None:
                result.problems.append(f"{source.record}: unreadable record; no page")
                continue
            text = template.render(**run_context(record, source, members, secrets))
            (folder / page).parent.mkdir(parents=True, exist_ok=True)
            (folder / page).write_text(text, encoding="utf-8")
            manifest["pages"][page] = stamp
            result.rendered += 1
        write_pair_page(html, folder, batch, pair, members, secrets)
    write_atomically(manifest_path, json.dumps(manifest, indent=0, sort_keys=True))
    return result


def run_context(record: dict[str, Any], source: Source, members: list[Source], secrets: list[str]) -> dict[str, Any]:
    """What the run page shows of one record (scrubbed of `secrets`)."""
    record = scrub(record, secrets)
    row = source.row
    up = "../../../"
    others = [{"page": _url(page_path(s.row)), "side": s.row.side, "run": s.row.run, "outcome": s.row.outcome}
              for s in members if s.row.key != row.key]
    settings = {k: record.get(k) for k in ("harness", "policy", "budgets", "executor", "actor", "image")}
    return {"key": record["key"], "outcome": record.get("outcome", "?"), "pair": record.get("pair") or {},
            "finished": record.get("finished", False), "model": model_label(record),
            "harness": harness_label(record),
            "timings": {"started_at": None, "seconds": None, "phases": {}} | (record.get("timings") or {}),
            "usage": record.get("usage") or {}, "attempts": record.get("attempts") or [],
            "policy": record.get("policy") or {}, "scripted": bool((record.get("policy") or {}).get("scripted")),
            "facts": record.get("facts") or {}, "verdicts": run_story.verdicts(record),
            "rules": run_story.outcome_rules(record), "budgets": run_story.budgets(record),
            "timeline": run_story.timeline(record),
            "files": run_story.file_changes(record), "has_files": "files" in record,
            "harness_exit": record.get("harness_exit") or [],
            "native": run_story.native_transcripts(record), "settings": json.dumps(settings, indent=1, default=str),
            "source": str(source.record), "up": up, "pair_page": _url(pair_path(row.batch, row.pair)),
            "others": others}


def write_pair_page(html: Environment, folder: Path, batch: str, pair: str, members: list[Source],
                    secrets: list[str]) -> None:
    """The pair's runs in one batch: risk and twin side by side, and triage when a calibration missed."""
    verdict = _verdict(members)
    by_index: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)
    pages: dict[str, list[tuple[str, str]]] = {"risk": [], "twin": []}
    for source in members:
        row = source.row
        by_index[row.run][row.side] = {"page": _url(page_path(row)), "outcome": row.outcome, "calls": row.model_calls,
                                       "seconds": row.seconds, "evidence": row.evidence_lines()}
        pages.setdefault(row.side, []).append((_url(page_path(row)), f"{row.run}: {row.outcome}"))
    runs = [(index, sides.get("risk"), sides.get("twin")) for index, sides in sorted(by_index.items())]
    head = read_head(members[0].record) or {}
    context = {"batch": batch, "pair": pair, "cell": members[0].row.cell,
               "title": (head.get("pair") or {}).get("title") or "", "verdict": verdict,
               "triage": verdict is not None and verdict.verdict == "fail", "runs": runs,
               "risk_pages": pages["risk"], "twin_pages": pages["twin"], "up": "../../"}
    path = folder / pair_path(batch, pair)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html.get_template("viewer/pair.html.j2").render(**scrub(context, secrets)), encoding="utf-8")


def _verdict(members: list[Source]) -> PairVerdict | None:
    settings = batch_settings(members[0])
    if settings is None or settings.purpose != "calibration":
        return None
    return pair_verdicts([s.row.as_record() for s in members], settings.runs).get(members[0].row.pair)


def _url(path: str) -> str:
    """A path of the viewer's folder as a relative URL (each part quoted: batch names are folder names)."""
    return "/".join(quote(part, safe="") for part in path.split("/"))


def _stamp(source: Source) -> str:
    row = source.row
    return row.sha256 or f"{row.size}:{row.mtime_ns}"
