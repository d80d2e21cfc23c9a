"""One model endpoint, reached by every stage with its own call settings on top."""

from authoring.stage1.providers import ProviderConfig
from authoring.stage2.model import ModelSettings


def test_a_stage_reaching_another_stages_endpoint_carries_all_of_it_over():
    agent = ModelSettings(provider="anthropic", model="claude-x", base_url="http://127.0.0.1:9/v1", api_key="k-1",
                          request_timeout=42.0)
    config = ProviderConfig.reaching(agent, max_tokens=100)
    assert (config.provider, config.model, config.base_url, config.key(), config.request_timeout) == (
        "anthropic", "claude-x", "http://127.0.0.1:9/v1", "k-1", 42.0)
    assert (config.max_tokens, config.malformed_attempts) == (100, ProviderConfig().malformed_attempts)
    assert "k-1" not in str(config.public())
