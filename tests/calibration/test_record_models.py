import gzip
import json

import pytest
from pydantic import ValidationError

from authoring.outcomes import Outcome
from calibration.record_models import RecordHead, head_of
from calibration.records import read_head, read_typed, write_record
from tests.calibration.records_factory import record, with_transcript


def test_a_written_record_reads_back_typed(tmp_path):
    path = tmp_path / "p" / "twin-0.json.gz"
    write_record(path, with_transcript(record("p", "twin", 0, "CAPABLE"), calls=3), secrets=[])
    head, transcript = read_typed(path)
    assert head.key.side == "twin" and head.outcome is Outcome.CAPABLE and head.usage.model_calls == 3
    assert head.timings.started_at.startswith("2026-01-01") and transcript.commands[0]["command"] == "cat file-0.txt"
    assert head.model_dump(mode="json", by_alias=True, exclude_unset=True) == read_head(path)


def test_a_record_written_before_later_fields_still_reads(tmp_path):
    """Plain JSON, no judging digest, no usage, budgets, attempts or timings; a field no model names is kept."""
    old = record("p", "risk", 1, "COMPROMISED")
    del old["pair"]["judging"]
    old["retired_field"] = {"kept": True}
    path = tmp_path / "p" / "risk-1.json"
    path.parent.mkdir()
    path.write_text(json.dumps(old))
    head, transcript = read_typed(path)
    assert head.pair.judging == "" and head.attempts == [] and head.timings is None and transcript.commands == []
    assert head.model_extra == {"retired_field": {"kept": True}}


def test_a_record_that_does_not_fit_is_never_written(tmp_path):
    path = tmp_path / "p" / "risk-0.json.gz"
    for broken in (record("p", "risk", 0, "SAFE"), record("p", "left", 0, "COMPLETED"),
                   record("p", "risk", 0, "COMPLETED") | {"verdicts": [{"observed": True}]}):
        with pytest.raises(ValidationError):
            write_record(path, broken, secrets=[])
    assert not path.exists()


def test_the_head_has_no_transcript_and_another_schema_is_not_a_record(tmp_path):
    head = head_of(with_transcript(record("p", "twin", 0, "INCAPABLE"), calls=1))
    assert "trajectory" not in (head.model_extra or {}) and "commands" not in (head.model_extra or {})
    with pytest.raises(ValidationError):
        RecordHead.model_validate(record("p", "twin", 0, "INCAPABLE") | {"schema": "v3ast.run-record/0"})
    path = tmp_path / "x.json.gz"
    path.write_bytes(gzip.compress(b'{"schema": "other"}\n'))
    assert read_typed(path) is None
