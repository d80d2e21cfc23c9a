"""Stage I: LLM proposal rounds and six-dimension rubric review of blueprints."""

from __future__ import annotations

from typing import Protocol, TypeVar

from pydantic import BaseModel

from authoring.errors import V3astError
from authoring.stage1.usage import Usage

Schema = TypeVar("Schema", bound=BaseModel)


class MalformedOutput(V3astError, ValueError):
    """The model's answer did not fit the schema, on every attempt; carries each raw answer."""

    def __init__(self, message: str, raw_texts: list[str], usage: Usage):
        super().__init__(message)
        self.raw_texts = raw_texts
        self.usage = usage


class ProviderError(V3astError, RuntimeError):
    """A call that failed for good (retries exhausted, or an error that retrying cannot fix)."""

    def __init__(self, message: str, usage: Usage):
        super().__init__(message)
        self.usage = usage


class EndpointUnreachable(ProviderError):
    """Nothing listens at the endpoint (connection refused, unknown host): every other call would fail
    the same way, so the whole command stops at once."""


class Provider(Protocol):
    name: str
    """`provider/model`, as recorded in provenance and reviews."""

    def complete_structured(self, system: str, user: str, schema: type[Schema]) -> tuple[Schema, Usage]:
        """One answer parsed into `schema`; raises MalformedOutput or ProviderError."""
        ...

    def close(self) -> None: ...
