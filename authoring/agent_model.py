"""mini-swe-agent's own LiteLLM model classes, set up the one way both Stage II and calibration use them."""

from __future__ import annotations

import os
from typing import Any


def litellm_model(model_name: str, *, api_key: str, base_url: str | None, timeout: float, attempts: int,
                  model_kwargs: dict[str, Any], templates: dict[str, Any], text_actions: bool = False):
    """`LitellmModel` (tool calls) or `LitellmTextbasedModel` (fenced bash blocks) with the package's own
    observation and format-error `templates`; retries are mini-swe-agent's (`attempts`), LiteLLM's own are off."""
    import litellm
    from minisweagent.models.litellm_model import LitellmModel
    from minisweagent.models.litellm_textbased_model import LitellmTextbasedModel

    litellm.suppress_debug_info = True
    os.environ["MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT"] = str(attempts)
    settings = dict(templates)
    kwargs = {**settings.pop("model_kwargs", {}), **model_kwargs, "api_key": api_key, "timeout": timeout,
              "max_retries": 0, "num_retries": 0}
    if base_url:
        kwargs["api_base"] = base_url
    model_class = LitellmTextbasedModel if text_actions else LitellmModel
    return model_class(model_name=model_name, model_kwargs=kwargs, cost_tracking="ignore_errors", **settings)
