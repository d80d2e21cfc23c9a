"""Anthropic messages with structured output through a forced tool call whose input schema is the pydantic schema."""

from __future__ import annotations

import json

import anthropic
from pydantic import BaseModel

from authoring.stage1.providers import StructuredProvider
from authoring.stage1.usage import Usage, usage_of_call


class AnthropicProvider(StructuredProvider):
    kind = wire = "anthropic"
    default_model = "claude-sonnet-4-6"
    client_class = anthropic.Anthropic
    sdk = anthropic
    answer_field = "content"
    key_variable = "ANTHROPIC_API_KEY"

    def send(self, system: str, user: str, schema: type[BaseModel]) -> tuple[str, Usage]:
        tool = schema.__name__
        response = self.request(lambda: self.client.messages.with_raw_response.create(
            model=self.model,
            max_tokens=self.config.max_tokens,
            system=system,
            messages=[{"role": "user", "content": user}],
            tools=[{"name": tool, "description": f"Submit the answer as a {tool}.",
                    "input_schema": schema.model_json_schema()}],
            tool_choice={"type": "tool", "name": tool},
        ))
        calls = [block for block in response.content if block.type == "tool_use" and block.name == tool]
        if calls:
            raw = json.dumps(calls[0].input)
        else:
            raw = "".join(getattr(block, "text", "") for block in response.content)
        return raw, usage_of_call(self.model, response.usage.input_tokens, response.usage.output_tokens)
