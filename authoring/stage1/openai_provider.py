"""OpenAI chat completions (or any compatible endpoint) with JSON-schema structured output."""

from __future__ import annotations

import openai
from pydantic import BaseModel

from authoring.stage1.providers import StructuredProvider
from authoring.stage1.usage import Usage, usage_of_call


class OpenAIProvider(StructuredProvider):
    kind = wire = "openai"
    default_model = "gpt-4.1-mini"
    client_class = openai.OpenAI
    sdk = openai
    answer_field = "choices"
    key_variable = "OPENAI_API_KEY"

    def send(self, system: str, user: str, schema: type[BaseModel]) -> tuple[str, Usage]:
        response = self.request(lambda: self.client.chat.completions.with_raw_response.create(
            model=self.model,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            response_format={"type": "json_schema", "json_schema": {
                "name": schema.__name__, "schema": schema.model_json_schema(), "strict": True}},
            max_completion_tokens=self.config.max_tokens,
        ))
        message = response.choices[0].message if response.choices else None
        raw = (message.content or message.refusal or "") if message else ""
        tokens = response.usage
        return raw, usage_of_call(self.model, tokens.prompt_tokens if tokens else 0,
                                  tokens.completion_tokens if tokens else 0)
