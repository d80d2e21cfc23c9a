"""Run records: one JSON file per run, written atomically, with every secret scrubbed."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring.atomic import write_atomically
from authoring.outcomes import Outcome
from authoring.pairs.format import TaskPair
from authoring.pairs.runner import SideRun

RECORD_SCHEMA = "v3ast.run-record/1"
REDACTED = "[redacted]"
SECRET_NAME = re.compile(r"(_KEY$|TOKEN|SECRET|PASSWORD)", re.IGNORECASE)
MIN_SECRET_LENGTH = 6


@dataclass(frozen=True, order=True)
class RunKey:
    """Identifies one run slot of a batch; a finished record under this key is never run again."""

    batch: str
    pair: str
    side: str
    index: int

    def path(self, runs_root: Path) -> Path:
        return records_folder(runs_root, self.batch) / self.pair / f"{self.side}-{self.index}.json"

    def __str__(self) -> str:
        return f"{self.batch}/{self.pair}/{self.side}/{self.index}"


def records_folder(runs_root: Path, batch: str) -> Path:
    return Path(runs_root) / batch / "records"


def secret_values(extra: Iterable[str] = ()) -> list[str]:
    """Values to scrub: the given ones (the API key) and every host variable named like a key, token or secret."""
    found = {value for name, value in os.environ.items() if SECRET_NAME.search(name)}
    found |= {value for value in extra if value}
    return sorted((v for v in found if len(v) >= MIN_SECRET_LENGTH), key=len, reverse=True)


def scrub(data: Any, secrets: list[str]) -> Any:
    """A copy of JSON-like data with each secret replaced, wherever it occurs in a string."""
    if isinstance(data, str):
        for secret in secrets:
            data = data.replace(secret, REDACTED)
        return data
    if isinstance(data, dict):
        return {scrub(k, secrets): scrub(v, secrets) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [scrub(item, secrets) for item in data]
    return data


def build_record(key: RunKey, pair: TaskPair, content_hash: str, run: SideRun | None, *,
                 harness: dict[str, Any], policy: dict[str, Any], attempts: list[dict[str, Any]],
                 error: str | None = None) -> dict[str, Any]:
    side = pair.side(key.side)
    record: dict[str, Any] = {
        "schema": RECORD_SCHEMA,
        "key": {"batch": key.batch, "pair": key.pair, "side": key.side, "index": key.index},
        "pair": {"id": pair.id, "title": pair.meta.title, "cell": pair.meta.cell, "risk": pair.meta.risk,
                 "source": pair.meta.source, "content_hash": content_hash},
        "harness": harness,
        "policy": policy,
        "budgets": side.spec.budgets.model_dump(),
        "attempts": attempts,
    }
    if run is None:
        record |= {"outcome": Outcome.UNRESOLVED.value, "finished": False,
                   "facts": {"overtime": False, "harness_error": error, "notes": []}, "verdicts": []}
        return record
    report = run.report
    record |= {
        "outcome": run.outcome.value,
        "finished": True,
        "actor": run.actor,
        "image": run.image,
        "facts": {"overtime": report.facts.overtime, "harness_error": report.facts.harness_error,
                  "notes": list(report.facts.notes)},
        "verdicts": [{"detector": v.detector, "observed": v.observed,
                      "evidence": v.finding.evidence if v.finding else None, "error": v.error} for v in run.verdicts],
        "harness_exit": report.details.get("turns", []),
        "commands": report.steps,
        "trajectory": report.details.get("trajectory", {}),
        "timings": {"started_at": run.started_at.isoformat(), "seconds": round(run.seconds, 3),
                    "turn_seconds": [t.get("seconds") for t in report.details.get("turns", [])]},
    }
    return record


def write_record(path: Path, record: dict[str, Any], secrets: list[str]) -> None:
    """Write atomically: a killed process leaves either the old file or the new one, never half of one."""
    write_atomically(path, json.dumps(scrub(record, secrets), indent=1, default=str))


def read_record(path: Path) -> dict[str, Any] | None:
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return record if isinstance(record, dict) and record.get("schema") == RECORD_SCHEMA else None


def is_finished(path: Path, content_hash: str) -> bool:
    """A finished record of the same pair content; infrastructure failures and stale content are run again."""
    record = read_record(path)
    return bool(record and record.get("finished") and record["pair"]["content_hash"] == content_hash)


def load_records(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Records from files and folders (searched recursively), in key order."""
    records = []
    for path in map(Path, paths):
        files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
        records += [r for r in map(read_record, files) if r is not None]
    return sorted(records, key=lambda r: (r["key"]["batch"], r["key"]["pair"], r["key"]["side"], r["key"]["index"]))
