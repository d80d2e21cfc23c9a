"""The run viewer's index: every run given, read from outcome indexes (never from transcripts), as compact columns
a static page can filter and sort in the browser.

Each text column (batch, pair, model, …) is stored once as a list of its distinct values and each run as a row of
integers into those lists, so the paper's 86,496 runs are a few MB of JavaScript that a page loaded from `file://`
reads with a `<script>` tag (browsers refuse `fetch` of local files) and filters in a few milliseconds.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from authoring.errors import NotFound
from authoring.outcomes import Outcome
from calibration.admission import pair_verdicts
from calibration.batch import BatchSettings, read_settings
from calibration.metrics import collect
from calibration.outcome_index import OutcomeIndex, OutcomeRow, records_folders
from calibration.records import RECORDS_DIR, read_head, records_folder

TEXT_COLUMNS = ("batch", "pair", "side", "cell", "model", "harness", "outcome", "reason", "calibration", "eligible")
NUMBER_COLUMNS = ("run", "started", "seconds", "calls", "tokens")
NOT_CALIBRATION = "—"


@dataclass(frozen=True)
class Source:
    """One run found: its outcome-index row and the file its record is in."""

    row: OutcomeRow
    record: Path


@dataclass
class Found:
    sources: list[Source] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def find_runs(arguments: list[str], runs_root: Path) -> Found:
    """Runs of the named batches (under runs_root) or record folders and files; every batch when none is named."""
    found = Found()
    targets = [Path(runs_root)] if not arguments else [_target(a, runs_root) for a in arguments]
    for target in targets:
        if target.is_file():
            head = read_head(target)
            if head is None:
                found.problems.append(f"{target}: not a run record")
            else:
                found.sources.append(Source(OutcomeRow.of(head, path=target.name), target))
            continue
        holder = next((p for p in (target, *target.parents) if p.name == RECORDS_DIR), None)
        folders = [holder] if holder else records_folders(target)[0]
        under = target.relative_to(holder).as_posix() if holder and holder != target else ""
        for folder in folders:
            rows = OutcomeIndex(folder).rows(under)
            found.problems += rows.problems
            found.sources += [Source(row, folder / row.path) for row in rows.rows]
    unique = {source.record.resolve(): source for source in found.sources}
    found.sources = sorted(unique.values(), key=lambda s: (s.row.batch, s.row.pair, s.row.side, s.row.run))
    return found


def _target(argument: str, runs_root: Path) -> Path:
    path = Path(argument)
    if path.exists():
        return path.resolve()
    batch = records_folder(runs_root, argument)
    if batch.is_dir():
        return batch
    raise NotFound(f"{argument}: neither a batch under {runs_root} nor a record file or folder")


def unresolved_reason(row: OutcomeRow) -> str:
    """Why a run is UNRESOLVED, in a few words that group runs (the whole evidence is on the run's page)."""
    if row.outcome != Outcome.UNRESOLVED:
        return ""
    if not row.finished:
        return "run failed (infrastructure)"
    lines = row.evidence_lines()
    for line in lines:
        detector, _, rest = line.partition(": ")
        if rest.startswith("detector error"):
            return f"{detector} detector error"
    for line in lines:
        if line.startswith("harness error: model endpoint") or "model endpoint" in line:
            return "model endpoint failed"
        if line.startswith("harness error"):
            return "harness error"
    return "other"


def calibration_verdicts(sources: list[Source]) -> dict[tuple[str, str], str]:
    """(batch, pair) → pass / fail / incomplete for calibration batches (K from the batch's settings)."""
    by_batch: dict[str, list[Source]] = defaultdict(list)
    for source in sources:
        by_batch[source.row.batch].append(source)
    verdicts = {}
    for batch, members in by_batch.items():
        settings = batch_settings(members[0])
        if settings is None or settings.purpose != "calibration":
            continue
        for pair, verdict in pair_verdicts([s.row.as_record() for s in members], settings.runs).items():
            verdicts[batch, pair] = verdict.verdict
    return verdicts


def batch_settings(source: Source) -> BatchSettings | None:
    """The settings of the batch a run belongs to (None for a record outside a batch folder)."""
    folder = next((p for p in source.record.parents if p.name == RECORDS_DIR), None)
    return read_settings(folder.parent.parent, folder.parent.name) if folder else None


def eligibility(rows: list[OutcomeRow]) -> dict[tuple[str, str], str]:
    """(model × harness, pair) → whether the pair is in E for that combination (its twin CAPABLE in all k twin
    runs, k the most runs found, as `calibration.metrics` reads it by default): yes, no, or short of k."""
    found = {}
    for group, pairs in collect(rows).items():
        k = max(max(len(p.risk), len(p.twin)) for p in pairs)
        for p in pairs:
            found[group, p.pair] = ("short of k" if min(len(p.risk), len(p.twin)) < k
                                    else "yes" if all(o == Outcome.CAPABLE for o in p.twin[:k]) else "no")
    return found


def index_data(sources: list[Source], verdicts: dict[tuple[str, str], str]) -> dict[str, Any]:
    """The index as dictionary-encoded columns: `values[column]` lists each text column's distinct values."""
    values: dict[str, dict[str, int]] = {column: {} for column in TEXT_COLUMNS}
    eligible = eligibility([source.row for source in sources])
    rows = []
    for source in sources:
        row = source.row
        text = {"batch": row.batch, "pair": row.pair, "side": row.side, "cell": row.cell, "model": row.model,
                "harness": row.harness, "outcome": row.outcome, "reason": unresolved_reason(row),
                "calibration": verdicts.get((row.batch, row.pair), NOT_CALIBRATION),
                "eligible": eligible[row.group, row.pair]}
        encoded = [values[c].setdefault(text[c], len(values[c])) for c in TEXT_COLUMNS]
        rows.append(encoded + [row.run, _epoch(row.started_at), row.seconds if row.seconds is not None else -1,
                               row.model_calls, row.prompt_tokens + row.completion_tokens])
    return {"columns": [*TEXT_COLUMNS, *NUMBER_COLUMNS],
            "values": {column: list(found) for column, found in values.items()}, "rows": rows}


def index_script(data: dict[str, Any]) -> str:
    """The index as a script that sets `window.V3AST_INDEX` (one row per line, so a diff of two builds reads)."""
    rows = ",\n".join(json.dumps(row, separators=(",", ":")) for row in data["rows"])
    head = json.dumps({k: v for k, v in data.items() if k != "rows"}, ensure_ascii=False, separators=(",", ":"))
    return f"window.V3AST_INDEX = {head[:-1]},\"rows\":[\n{rows}\n]}};\n".replace("</", "<\\/")


def page_path(row: OutcomeRow) -> str:
    """A run's page, relative to the viewer folder."""
    return f"runs/{row.batch}/{row.pair}/{row.side}-{row.run}.html"


def pair_path(batch: str, pair: str) -> str:
    return f"pairs/{batch}/{pair}.html"


def _epoch(started: str | None) -> int:
    if not started:
        return -1
    try:
        return int(datetime.fromisoformat(started).timestamp())
    except ValueError:
        return -1
