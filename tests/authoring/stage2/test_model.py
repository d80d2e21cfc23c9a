import pytest

from authoring.offline.model_servers import ScriptedModelServer, tool_call_reply
from authoring.stage2.agent import native_model_settings
from authoring.stage2.model import ModelSettings, build_model


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
def test_both_wire_formats_reach_the_agent_as_bash_actions(wire):
    with ScriptedModelServer(lambda body: tool_call_reply("bash", {"command": "ls -la"}), wire=wire) as server:
        settings = ModelSettings(provider=wire, model="scripted", base_url=server.base_url, api_key="k", attempts=1)
        model = build_model(settings, native_model_settings())
        message = model.query([{"role": "system", "content": "be brief"}, {"role": "user", "content": "list"}])
    assert [a["command"] for a in message["extra"]["actions"]] == ["ls -la"]
    assert server.requests[0]["model"] == "scripted"


def test_the_key_is_never_in_the_public_settings(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    settings = ModelSettings(provider="anthropic", model="m")
    assert settings.key() == "from-env" and "api_key" not in settings.public()
    assert settings.litellm_name == "anthropic/m"
