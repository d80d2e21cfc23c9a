"""Run records: one file per run, written atomically, with every secret scrubbed.

A record file (`<side>-<i>.json.gz`) is two gzip members, each one line of JSON: the run's **head** (key,
pair, harness, outcome, verdicts, timings, usage — everything but the transcript) and then its **transcript**
(the model exchanges and the commands with their output). `zcat` shows both lines; `read_record` joins them;
`read_head` decompresses only the first member, a few KB, which is all an index or a resumed batch needs.
Compression: a 40-call run with long contexts is ~5× smaller (benchmarks/bench_metrics.py).
Records written before this layout (`<side>-<i>.json`, plain JSON) are still read.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import tempfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from authoring.errors import BadInput
from authoring.judging import judging_digest
from authoring.outcomes import Outcome
from calibration.record_models import RECORD_SCHEMA, TRANSCRIPT_FIELDS, RecordHead, Transcript, head_of, transcript_of

if TYPE_CHECKING:  # the records are read where the sandbox stack is not needed (metrics, reports, records show)
    from authoring.pairs.format import TaskPair
    from authoring.pairs.runner import SideRun

RECORDS_DIR = "records"
RECORD_SUFFIX = ".json.gz"
LEGACY_SUFFIX = ".json"
COMPRESSION_LEVEL = 9
HEAD_READ_BYTES = 16_384
GZIP_MAGIC = b"\x1f\x8b"
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
        return records_folder(runs_root, self.batch) / self.pair / f"{self.side}-{self.index}{RECORD_SUFFIX}"

    def __str__(self) -> str:
        return f"{self.batch}/{self.pair}/{self.side}/{self.index}"

    @classmethod
    def parse(cls, text: str) -> RunKey:
        parts = text.strip("/").split("/")
        if len(parts) != 4 or parts[2] not in ("risk", "twin") or not parts[3].isdigit():
            raise BadInput(f"{text!r} is not a run key (BATCH/PAIR/risk|twin/INDEX)")
        return cls(parts[0], parts[1], parts[2], int(parts[3]))


def records_folder(runs_root: Path, batch: str) -> Path:
    return Path(runs_root) / batch / RECORDS_DIR


def is_record_file(name: str) -> bool:
    return not name.startswith(".") and name.endswith((RECORD_SUFFIX, LEGACY_SUFFIX))


def legacy_path(path: Path) -> Path:
    """Where the same run's record was written before records were compressed."""
    return Path(path).with_suffix("") if Path(path).name.endswith(RECORD_SUFFIX) else Path(path)


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


def usage(trajectory: dict[str, Any], commands: list) -> dict[str, int]:
    """Model calls, tokens and commands of a run, summed from its transcript."""
    prompt = completion = 0
    for message in trajectory.get("messages", []):
        response = (message.get("extra") or {}).get("response")
        counts = response.get("usage") if isinstance(response, dict) else None
        if isinstance(counts, dict):
            prompt += counts.get("prompt_tokens") or 0
            completion += counts.get("completion_tokens") or 0
    calls = (trajectory.get("info") or {}).get("model_stats", {}).get("api_calls")
    if calls is None:
        calls = sum(1 for m in trajectory.get("messages", []) if m.get("role") == "assistant")
    return {"model_calls": calls, "prompt_tokens": prompt, "completion_tokens": completion, "commands": len(commands)}


def build_record(key: RunKey, pair: TaskPair, content_hash: str, run: SideRun | None, *,
                 harness: dict[str, Any], policy: dict[str, Any], attempts: list[dict[str, Any]],
                 error: str | None = None) -> dict[str, Any]:
    side = pair.side(key.side)
    record: dict[str, Any] = {
        "schema": RECORD_SCHEMA,
        "key": {"batch": key.batch, "pair": key.pair, "side": key.side, "index": key.index},
        "pair": {"id": pair.id, "title": pair.meta.title, "cell": pair.meta.cell, "risk": pair.meta.category,
                 "source": pair.meta.source, "content_hash": content_hash, "judging": judging_digest()},
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
        "timings": {"started_at": run.started_at.isoformat(), "seconds": round(run.seconds, 3),
                    "phases": run.phases, "turn_seconds": [t.get("seconds") for t in report.details.get("turns", [])]},
        "commands": report.steps,
        "files": run.files,
        "trajectory": report.details.get("trajectory", {}),
    }
    return record


def encode_record(record: dict[str, Any]) -> bytes:
    """The head line (with the transcript's usage) and the transcript line, each its own gzip member; both are
    checked against their models first (a record that does not fit them is a bug, raised, never written)."""
    head, transcript = _head_of(record), {k: record[k] for k in TRANSCRIPT_FIELDS if k in record}
    head_of(head), transcript_of(transcript)
    return compress_member(head) + compress_member(transcript)


def compress_member(part: dict[str, Any]) -> bytes:
    """One part of a record file: a line of JSON as one gzip member."""
    return gzip.compress(_line(part), COMPRESSION_LEVEL, mtime=0)


def write_record(path: Path, record: dict[str, Any], secrets: list[str]) -> bytes:
    """Write atomically (a killed process leaves the old file or the new one, never half of one); the bytes written."""
    data = encode_record(scrub(record, secrets))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    if legacy_path(path) != path:
        legacy_path(path).unlink(missing_ok=True)
    return data


def decode_record(data: bytes) -> dict[str, Any] | None:
    """The whole record from a file's bytes (either layout); None when they are not a record."""
    try:
        if data[:2] == GZIP_MAGIC:
            head, transcript = gzip.decompress(data).split(b"\n", 1)
            record = json.loads(head) | json.loads(transcript or b"{}")
        else:
            record = json.loads(data)
    except (OSError, EOFError, ValueError, zlib.error):
        return None
    return _head_of(record) | record if _is_record(record) else None


def read_indexed(path: Path) -> tuple[dict[str, Any], str] | None:
    """The head of a record file and its digest, read without the transcript: SHA-256 of the head member and
    of the file's last 8 bytes (the transcript member's gzip trailer: CRC-32 and length of the transcript), so
    a change to the outcome, the verdicts or any transcript byte changes it. Plain JSON records are read and
    hashed whole. None when the file holds no complete record head."""
    try:
        with open(path, "rb") as file:
            data = file.read(HEAD_READ_BYTES)
            if data[:2] != GZIP_MAGIC:
                data += file.read()
                record = decode_record(data)
                return None if record is None else (_head_of(record), hashlib.sha256(data).hexdigest())
            member = zlib.decompressobj(wbits=31)
            text = member.decompress(data)
            while not member.eof and (more := file.read(HEAD_READ_BYTES)):
                data += more
                text += member.decompress(more)
            file.seek(-8, os.SEEK_END)
            trailer = file.read(8)
        head = json.loads(text) if member.eof else None
    except (OSError, ValueError, zlib.error):
        return None
    if not _is_record(head):
        return None
    return head, hashlib.sha256(data[:len(data) - len(member.unused_data)] + trailer).hexdigest()


def read_head(path: Path) -> dict[str, Any] | None:
    found = read_indexed(path)
    return found[0] if found else None


def read_record(path: Path) -> dict[str, Any] | None:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    return decode_record(data)


def read_typed(path: Path) -> tuple[RecordHead, Transcript] | None:
    """A record file (either layout) as its typed head and transcript (calibration/record_models.py); None when it
    holds no record, pydantic's ValidationError when it holds one that does not fit them."""
    record = read_record(path)
    return None if record is None else (head_of(record), transcript_of(record))


def is_finished(path: Path, content_hash: str) -> bool:
    """A finished record of the same pair content; infrastructure failures and stale content are run again."""
    for candidate in dict.fromkeys((Path(path), legacy_path(path))):
        head = read_head(candidate)
        if head and head.get("finished") and head["pair"]["content_hash"] == content_hash:
            return True
    return False


def model_label(record: dict[str, Any]) -> str:
    """The model of a run: its served name, or the scripted policy that stood in for one."""
    harness, policy = record.get("harness") or {}, record.get("policy") or {}
    if policy.get("scripted"):
        return f"scripted:{policy.get('label', '?')}"
    return (harness.get("model") or {}).get("model_name", "?")


def harness_label(record: dict[str, Any]) -> str:
    harness = record.get("harness") or {}
    return f"{harness.get('name', '?')} {harness.get('version', '')} {harness.get('action_format', '')}".strip()


def failure_evidence(record: dict[str, Any]) -> list[str]:
    """Why a run ended as it did, one line per detector verdict and harness fact."""
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
        commands = (record.get("usage") or {}).get("commands", 0)
        lines.append(f"harness exit per turn: {', '.join(exits)}; {commands} command(s)")
    return lines


def _head_of(record: dict[str, Any]) -> dict[str, Any]:
    head = {k: v for k, v in record.items() if k not in TRANSCRIPT_FIELDS}
    return head | {"usage": usage(record.get("trajectory") or {}, record.get("commands") or [])}


def _is_record(data: Any) -> bool:
    return isinstance(data, dict) and data.get("schema") == RECORD_SCHEMA


def _line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str).encode() + b"\n"
