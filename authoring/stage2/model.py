"""The Stage II agent's model: any OpenAI-compatible or Anthropic endpoint, reached through LiteLLM."""

from __future__ import annotations

from typing import Any

from authoring.agent_model import AgentModel, endpoint_model

PROVIDERS = ("openai", "anthropic")


class ModelSettings(AgentModel):
    """How the agent reaches its model; `provider` is the wire format: openai (any OpenAI-compatible server, e.g.
    vLLM) or anthropic."""

    model: str = "gpt-4.1"
    """The model's name as the endpoint knows it."""


def build_model(settings: ModelSettings, native: dict[str, Any]):
    """mini-swe-agent's own LitellmModel, with the package's observation and format-error templates (`native`)."""
    return endpoint_model(settings, native)
