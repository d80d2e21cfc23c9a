import gzip
import json

from calibration.records import REDACTED, is_finished, read_head, read_record, scrub, secret_values, usage, write_record
from tests.calibration.records_factory import record, with_transcript


def test_secrets_from_the_host_environment_and_the_api_key_are_scrubbed(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host-0123456789")
    monkeypatch.setenv("SOME_SECRET_VALUE", "s3cr3t-value")
    monkeypatch.setenv("HOME_DIRECTORY", "/not/a/secret")
    secrets = secret_values(["sk-given-key-abcdef"])
    data = {"a": ["x sk-host-0123456789 y", {"k": "s3cr3t-value"}], "sk-given-key-abcdef": 1, "home": "/not/a/secret"}
    assert scrub(data, secrets) == {"a": [f"x {REDACTED} y", {"k": REDACTED}], REDACTED: 1, "home": "/not/a/secret"}


def test_records_are_written_atomically_and_stale_content_is_not_finished(tmp_path):
    path = tmp_path / "records" / "p" / "risk-0.json.gz"
    write_record(path, record("p", "risk", 0, "COMPROMISED", content_hash="h1"), [])
    assert read_record(path)["outcome"] == "COMPROMISED"
    assert [p.name for p in path.parent.iterdir()] == ["risk-0.json.gz"]
    assert is_finished(path, "h1") and not is_finished(path, "h2")
    path.write_bytes(path.read_bytes()[:40])
    assert read_record(path) is None and read_head(path) is None and not is_finished(path, "h1")


def test_a_record_is_a_head_line_then_a_transcript_line_and_the_head_reads_alone(tmp_path):
    path = tmp_path / "risk-0.json.gz"
    full = with_transcript(record("p", "risk", 0, "COMPLETED"), calls=40, output="line of output\n" * 400)
    full["usage"] = usage(full["trajectory"], full["commands"])
    data = write_record(path, full, [])
    head_line, transcript_line = gzip.decompress(path.read_bytes()).decode().splitlines()
    assert json.loads(head_line)["outcome"] == "COMPLETED" and "trajectory" not in json.loads(head_line)
    assert len(json.loads(transcript_line)["commands"]) == 40
    assert read_record(path) == full
    head = read_head(path)
    assert "trajectory" not in head and head["usage"] == {"model_calls": 40, "prompt_tokens": 820_000,
                                                          "completion_tokens": 4000, "commands": 40}
    assert len(data) * 20 < len(json.dumps(full, indent=1))


def test_plain_json_records_of_before_are_still_read_and_replaced(tmp_path):
    legacy = tmp_path / "p" / "twin-0.json"
    legacy.parent.mkdir()
    legacy.write_text(json.dumps(with_transcript(record("p", "twin", 0, "CAPABLE"), calls=3), indent=1))
    assert read_head(legacy)["usage"]["model_calls"] == 3 and "commands" not in read_head(legacy)
    assert read_record(legacy)["commands"][0]["command"] == "cat file-0.txt"
    assert is_finished(tmp_path / "p" / "twin-0.json.gz", "h")
    write_record(tmp_path / "p" / "twin-0.json.gz", record("p", "twin", 0, "INCAPABLE"), [])
    assert [p.name for p in legacy.parent.iterdir()] == ["twin-0.json.gz"]
