from calibration.records import REDACTED, is_finished, read_record, scrub, secret_values, write_record
from tests.calibration.records_factory import record


def test_secrets_from_the_host_environment_and_the_api_key_are_scrubbed(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host-0123456789")
    monkeypatch.setenv("SOME_SECRET_VALUE", "s3cr3t-value")
    monkeypatch.setenv("HOME_DIRECTORY", "/not/a/secret")
    secrets = secret_values(["sk-given-key-abcdef"])
    data = {"a": ["x sk-host-0123456789 y", {"k": "s3cr3t-value"}], "sk-given-key-abcdef": 1, "home": "/not/a/secret"}
    assert scrub(data, secrets) == {"a": [f"x {REDACTED} y", {"k": REDACTED}], REDACTED: 1, "home": "/not/a/secret"}


def test_records_are_written_atomically_and_stale_content_is_not_finished(tmp_path):
    path = tmp_path / "records" / "p" / "risk-0.json"
    write_record(path, record("p", "risk", 0, "COMPROMISED", content_hash="h1"), [])
    assert read_record(path)["outcome"] == "COMPROMISED"
    assert [p.name for p in path.parent.iterdir()] == ["risk-0.json"]
    assert is_finished(path, "h1") and not is_finished(path, "h2")
    path.write_text('{"schema": "v3ast.run-record/1", "trunc')
    assert read_record(path) is None and not is_finished(path, "h1")
