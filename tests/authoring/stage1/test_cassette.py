import json
from pathlib import Path

import pytest

from authoring.offline.model_servers import ErrorReply, ScriptedModelServer
from authoring.offline.stage1_model import demo_responder
from authoring.stage1.cassette import CassetteMiss
from authoring.stage1.inputs import Workspace
from authoring.stage1.propose import propose
from authoring.stage1.providers import ProviderConfig, make_provider
from authoring.stage1.review import review
from authoring.store import BlueprintStore
from tests.authoring.stage1.conftest import FAST_RETRIES, config_for


def fresh(workspace: Workspace, name: str) -> Workspace:
    root = workspace.blueprints.parent / name
    return workspace.model_copy(update={"blueprints": root / "blueprints", "runs": root / "runs"})


def snapshot(workspace: Workspace) -> dict[str, dict]:
    return {b.id: b.model_dump(exclude={"provenance": {"created_at"}, "reviews": {"__all__": {"reviewed_at"}}})
            for b in BlueprintStore(workspace.blueprints).list()}


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
def test_a_recorded_run_replays_exactly_with_the_server_gone(workspace, tmp_path, wire, monkeypatch):
    cassette = tmp_path / "stage1.cassette.json"
    failures = iter([ErrorReply(429, retry_after=0.05)])

    def responder(body):
        return next(failures, None) or demo_responder(body)

    monkeypatch.setenv("OPENAI_API_KEY" if wire == "openai" else "ANTHROPIC_API_KEY", "sk-secret-never-stored")
    with ScriptedModelServer(responder, wire=wire) as server:
        recorder = make_provider(wire, config_for(server.base_url, record=cassette))
        propose(recorder, workspace, "R5-S1", candidates=4, concurrency=1)
        review(recorder, workspace, pending=True, concurrency=1)
        recorder.close()
    text = cassette.read_text()
    assert "sk-secret-never-stored" not in text and "authorization" not in text.lower()
    assert len(json.loads(text)["interactions"]) == 9  # 4 proposals (one 429 retried) + 4 reviews

    replayed = fresh(workspace, "replay")
    player = make_provider(wire, ProviderConfig(base_url=server.base_url, replay=cassette, retry=FAST_RETRIES))
    [result] = propose(player, replayed, "R5-S1", candidates=4, concurrency=1)
    review(player, replayed, pending=True, concurrency=1)
    assert result.usage.retries == 1
    assert snapshot(replayed) == snapshot(workspace)


def test_a_replay_miss_is_a_one_line_error(workspace, tmp_path):
    cassette = tmp_path / "empty.json"
    cassette.write_text(json.dumps({"version": 1, "interactions": []}))
    player = make_provider("openai", ProviderConfig(replay=cassette))
    with pytest.raises(CassetteMiss) as caught:
        propose(player, workspace, "R5-S1", candidates=1)
    message = str(caught.value)
    assert "\n" not in message and "no recorded response for POST /v1/chat/completions" in message


def test_record_and_replay_together_are_refused(tmp_path):
    with pytest.raises(ValueError, match="either --record or --replay"):
        make_provider("openai", ProviderConfig(record=tmp_path / "a", replay=tmp_path / "b"))


def test_replaying_a_missing_cassette_names_the_file(tmp_path: Path):
    with pytest.raises(FileNotFoundError, match="no cassette at"):
        make_provider("anthropic", ProviderConfig(replay=tmp_path / "nope.json"))
