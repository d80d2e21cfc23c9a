"""Run records as types: a record file's head and transcript as pydantic models, as Inspect's logs are.

`calibration/records.py` writes and reads records as JSON objects, and its functions keep returning them as dicts
(the outcome index, metrics, reports and the run viewer read those); these models say what the objects hold. Every
record is checked against them before it is written, and `records.read_typed` gives a reader the typed view. A
field added after records were first written has a default, so older records (plain `.json` ones too) still
validate; a field a model does not name is kept as it is (`extra="allow"`), so reading a record typed loses nothing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from authoring.outcomes import Outcome

RECORD_SCHEMA = "v3ast.run-record/1"
"""The tag every record carries; a JSON object without it is not a record."""


class Part(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class RecordKey(Part):
    """The run slot: batch, pair, side and the run's index on that side."""

    batch: str
    pair: str
    side: Literal["risk", "twin"]
    index: int


class PairInfo(Part):
    """The pair as it was when it ran."""

    id: str
    content_hash: str
    """The pair's content hash: a record of other content is run again."""
    title: str = ""
    cell: str = ""
    risk: str = ""
    source: str = ""
    judging: str = ""
    """The judging digest of the code that judged the run (empty in records written before it was kept)."""


class Facts(Part):
    """What the harness reported about its own run."""

    overtime: bool = False
    harness_error: str | None = None
    notes: list[str] = []


class Verdict(Part):
    """One detector's verdict."""

    detector: str
    observed: bool | None = None
    evidence: Any = None
    error: str | None = None


class Timings(Part):
    started_at: str | None = None
    """ISO 8601, with the time zone."""
    seconds: float | None = None
    phases: dict[str, float] = {}
    """Seconds per phase of the run (image, sandbox, turns, judging, teardown)."""
    turn_seconds: list[float | None] = []


class Usage(Part):
    """Summed from the transcript when the record is written."""

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    commands: int = 0


class RecordHead(Part):
    """Everything about a run but its transcript: the first line of a record file, all an index needs."""

    record_schema: Literal["v3ast.run-record/1"] = Field(RECORD_SCHEMA, alias="schema")
    key: RecordKey
    pair: PairInfo
    outcome: Outcome
    finished: bool
    """False for a run that failed for infrastructure reasons (its slot is run again on resume)."""
    harness: dict[str, Any] = {}
    """The harness adapter's own description: name, version, model settings, flags."""
    policy: dict[str, Any] = {}
    """The scripted policy that stood in for a model, if one did (`scripted`, `label`)."""
    budgets: dict[str, Any] = {}
    attempts: list[dict[str, Any]] = []
    """Earlier attempts that failed for infrastructure reasons (node and error)."""
    actor: str | None = None
    image: str | None = None
    facts: Facts = Facts()
    verdicts: list[Verdict] = []
    harness_exit: list[dict[str, Any]] = []
    """How each user turn's harness process ended."""
    timings: Timings | None = None
    usage: Usage = Usage()


class Transcript(Part):
    """The second line of a record file: the model exchanges and the commands with their output."""

    trajectory: dict[str, Any] = {}
    """mini-swe-agent's trajectory (`messages`, `info`), or the proxy's exchanges in the same shape."""
    commands: list[dict[str, Any]] = []
    files: list[dict[str, str]] = []
    """What the agent changed on disk (`path`, `kind`, a text file's unified `diff`); older records have none."""


TRANSCRIPT_FIELDS = tuple(Transcript.model_fields)
"""The fields of a record that are its transcript; the rest is its head."""


def head_of(record: dict[str, Any]) -> RecordHead:
    """The typed head of a record as `read_record` or `read_head` returns it; raises pydantic's ValidationError."""
    return RecordHead.model_validate({k: v for k, v in record.items() if k not in TRANSCRIPT_FIELDS})


def transcript_of(record: dict[str, Any]) -> Transcript:
    return Transcript.model_validate({k: record[k] for k in TRANSCRIPT_FIELDS if k in record})
