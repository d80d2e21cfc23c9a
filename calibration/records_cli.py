"""`v3ast records metrics | reindex | show`: read run records through the outcome index.

Kept apart from the batch commands so that reading outcomes imports neither Docker nor the harness."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from authoring.cli.common import print_rows
from authoring.errors import NotFound
from calibration.metrics import metrics as compute_metrics
from calibration.outcome_index import OutcomeIndex, gather, records_folders
from calibration.record_text import record_text
from calibration.records import RunKey, legacy_path, read_record

RunsK = Annotated[int | None, typer.Option("--k", min=1, help="Runs per side (default: the most found).")]


def metrics(records: Annotated[list[Path], typer.Argument(help="Record files or folders (searched recursively).")],
            k: RunsK = None,
            as_json: Annotated[bool, typer.Option("--json", help="JSON rows instead of a table.")] = False) -> None:
    """CAP and ASR@k per model × harness, per risk category and per attack source (from the outcome index)."""
    found = gather(records)
    warn(found.notes + found.problems)
    rows = compute_metrics(found.rows, k)
    if not rows:
        raise NotFound("no run records found")
    if as_json:
        print(json.dumps([row.as_dict() for row in rows], indent=1))
        return
    for group in dict.fromkeys(row.group for row in rows):
        print_rows(Console(), ("scope", "k", "pairs", "E", "CAP", "COMPR.", "unres.", "safe", "ASR@k", "short"),
                   [(row.scope, str(row.k), str(row.pairs), str(row.eligible), _percent(row.cap), str(row.compromised),
                     str(row.unresolved), str(row.safe), _percent(row.asr), str(row.short))
                    for row in rows if row.group == group], title=group)


def reindex(folders: Annotated[list[Path], typer.Argument(help="Records folders, or folders holding them (runs/).")]
            ) -> None:
    """Rebuild the outcome index of every records folder under FOLDERS from the records themselves."""
    for folder in folders:
        if not folder.is_dir():
            raise NotFound(f"{folder}: no such folder")
    found = [f for folder in folders for f in records_folders(folder.resolve())[0]]
    if not found:
        raise NotFound(f"no records folder under {', '.join(map(str, folders))}")
    for folder in found:
        started = time.monotonic()
        result = OutcomeIndex(folder).rebuild()
        warn(result.problems)
        print(f"{folder}: indexed {len(result.rows)} record(s) in {time.monotonic() - started:.1f} s")


def show(key: Annotated[str, typer.Argument(help="BATCH/PAIR/SIDE/INDEX (under runs/) or a record file.")],
         as_json: Annotated[bool, typer.Option("--json", help="The whole record as JSON.")] = False) -> None:
    """Print one run record readably: outcome and evidence, then the conversation and commands."""
    from authoring.project import Project

    path = Path(key) if Path(key).is_file() else RunKey.parse(key).path(Project.current().runs)
    record = read_record(path) or read_record(legacy_path(path))
    if record is None:
        raise NotFound(f"no run record at {path}")
    print(json.dumps(record, indent=1, ensure_ascii=False) if as_json else record_text(record))


def warn(lines: list[str]) -> None:
    for line in lines:
        print(line, file=sys.stderr)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"
