"""The Stage II agent's model: any OpenAI-compatible or Anthropic endpoint, reached through LiteLLM."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import SecretStr

from authoring.agent_model import litellm_model
from authoring.fields import Strict
from authoring.settings import settings

PROVIDERS = ("openai", "anthropic")


class ModelSettings(Strict):
    """How the agent reaches its model; the key is never written to a record."""

    provider: Literal["openai", "anthropic"] = "openai"
    """Wire format of the endpoint: openai (any OpenAI-compatible server, e.g. vLLM) or anthropic."""
    model: str = "gpt-4.1"
    """The model's name as the endpoint knows it."""
    base_url: str | None = None
    """The endpoint (OpenAI-compatible ones end in /v1); None means the provider's public API."""
    api_key: SecretStr = SecretStr("")
    """Empty: read from V3AST_MODEL_API_KEY, then OPENAI_API_KEY / ANTHROPIC_API_KEY."""
    attempts: int = 3
    """Attempts per model query before the attempt fails (mini-swe-agent's retry)."""
    request_timeout: float = 600.0
    """Seconds before one model request fails."""
    model_kwargs: dict[str, Any] = {}
    """Extra sampling settings passed to the API (temperature, max_tokens, ...)."""

    @property
    def litellm_name(self) -> str:
        return f"{self.provider}/{self.model}"

    def key(self) -> str:
        given = self.api_key.get_secret_value()
        return given or settings().api_key(self.provider) or "EMPTY"

    def public(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"api_key"})


def build_model(settings: ModelSettings, native: dict[str, Any]):
    """mini-swe-agent's own LitellmModel, with the package's observation and format-error templates (`native`)."""
    return litellm_model(settings.litellm_name, api_key=settings.key(), base_url=settings.base_url,
                         timeout=settings.request_timeout, attempts=settings.attempts,
                         model_kwargs=settings.model_kwargs, templates=native)
