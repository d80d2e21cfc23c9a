"""mini-swe-agent's own LiteLLM model classes, set up the one way both Stage II and calibration use them."""

from __future__ import annotations

from typing import Any

from authoring.settings import ModelEndpoint


class AgentModel(ModelEndpoint):
    """An endpoint as mini-swe-agent's LiteLLM models reach it (the Stage II agent, the calibration harness)."""

    attempts: int = 3
    """Attempts per model query before it fails (mini-swe-agent's retry, counted per model)."""
    model_kwargs: dict[str, Any] = {}
    """Extra sampling settings passed to the API (temperature, max_tokens, ...)."""

    @property
    def litellm_name(self) -> str:
        return f"{self.provider}/{self.model}"

    def key(self) -> str:
        """The configured key; with none (a local server), the placeholder `EMPTY`."""
        return super().key() or "EMPTY"


class _FlaggedFinal(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return getattr(instance, "v3ast_final_attempt", False)


class FinalAttempt(metaclass=_FlaggedFinal):
    """Matches an error raised on a model's last allowed attempt: listed among mini-swe-agent's abort exceptions,
    it stops the package's retry there, with the endpoint's own error."""


def with_attempts(model_class: type) -> type:
    """`model_class` counting its own attempts per query, so each model has its own retry budget (mini-swe-agent's
    retry count is a process-wide variable, set once at start-up)."""

    class Counted(model_class):
        abort_exceptions = [*model_class.abort_exceptions, FinalAttempt]

        def __init__(self, *, attempts: int, **kwargs: Any):
            super().__init__(**kwargs)
            self.attempts, self.tried = attempts, 0

        def query(self, messages: list[dict], **kwargs: Any) -> dict:
            self.tried = 0
            return super().query(messages, **kwargs)

        def _query(self, messages: list[dict], **kwargs: Any):
            self.tried += 1
            try:
                return super()._query(messages, **kwargs)
            except Exception as error:
                error.v3ast_final_attempt = self.tried >= self.attempts
                raise

    Counted.__name__ = Counted.__qualname__ = model_class.__name__
    return Counted


def litellm_model(model_name: str, *, api_key: str, base_url: str | None, timeout: float, attempts: int,
                  model_kwargs: dict[str, Any], templates: dict[str, Any], text_actions: bool = False):
    """`LitellmModel` (tool calls) or `LitellmTextbasedModel` (fenced bash blocks) with the package's own
    observation and format-error `templates`; retries are mini-swe-agent's (`attempts`), LiteLLM's own are off."""
    import litellm
    from minisweagent.models.litellm_model import LitellmModel
    from minisweagent.models.litellm_textbased_model import LitellmTextbasedModel

    litellm.suppress_debug_info = True
    settings = dict(templates)
    kwargs = {**settings.pop("model_kwargs", {}), **model_kwargs, "api_key": api_key, "timeout": timeout,
              "max_retries": 0, "num_retries": 0}
    if base_url:
        kwargs["api_base"] = base_url
    model_class = with_attempts(LitellmTextbasedModel if text_actions else LitellmModel)
    return model_class(attempts=attempts, model_name=model_name, model_kwargs=kwargs, cost_tracking="ignore_errors",
                       **settings)


def endpoint_model(endpoint: AgentModel, templates: dict[str, Any], text_actions: bool = False):
    """`litellm_model` reaching `endpoint`."""
    return litellm_model(endpoint.litellm_name, api_key=endpoint.key(), base_url=endpoint.base_url,
                         timeout=endpoint.request_timeout, attempts=endpoint.attempts,
                         model_kwargs=endpoint.model_kwargs, templates=templates, text_actions=text_actions)
