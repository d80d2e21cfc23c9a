"""Providers: structured output from a model API, with retries, timeouts, cassettes and usage accounting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from authoring.blueprint import plain_problems
from authoring.errors import BadInput
from authoring.retry import RetriesExhausted, RetryPolicy, TransientError, retry_after_seconds, with_backoff
from authoring.settings import EndpointProvider, ModelEndpoint
from authoring.stage1 import EndpointUnreachable, MalformedOutput, Provider, ProviderError, Schema
from authoring.stage1.cassette import Cassette, CassetteMiss
from authoring.stage1.usage import Usage

PROVIDERS: dict[str, str] = {
    "openai": "authoring.stage1.openai_provider:OpenAIProvider",
    "anthropic": "authoring.stage1.anthropic_provider:AnthropicProvider",
    "demo": "authoring.offline.stage1_model:DemoProvider",
}
TRANSIENT_STATUSES = {408, 409, 425, 429}


class ProviderConfig(ModelEndpoint):
    """How Stage I calls its endpoint: the shared endpoint settings (`provider` is set from the provider's name)
    and structured-output calls' own."""

    request_timeout: float = 180.0
    """Seconds per HTTP request before it counts as a transient failure (`--timeout`, $V3AST_STAGE1_TIMEOUT)."""
    max_tokens: int = 8192
    """Upper bound on the answer's length."""
    retry: RetryPolicy = RetryPolicy(name="Stage I request")
    """Backoff on rate limits, server errors and timeouts."""
    malformed_attempts: int = 3
    """How many answers to ask for before giving up on one that does not fit the schema."""
    record: Path | None = None
    """Cassette file to record every exchange to."""
    replay: Path | None = None
    """Cassette file to replay exchanges from; no network is used."""


Notice = Callable[[str], None]
"""Where a provider says, in one line, that it retries an attempt."""


def make_provider(name: str, config: ProviderConfig, on_retry: Notice | None = None) -> Provider:
    if name not in PROVIDERS:
        raise BadInput(f"unknown provider {name!r} (available: {', '.join(sorted(PROVIDERS))})")
    if config.record and config.replay:
        raise BadInput("give either --record or --replay, not both")
    module, _, attribute = PROVIDERS[name].partition(":")
    return getattr(import_module(module), attribute)(config, on_retry)


class StructuredProvider:
    """The shared part: key lookup, cassette, transient retries and malformed-answer retries."""

    kind: ClassVar[str]
    wire: ClassVar[EndpointProvider]
    """The API it speaks, which also names the vendor's key variable."""
    default_model: ClassVar[str]
    key_variable: ClassVar[str]
    client_class: ClassVar[type]
    """The official SDK's client (`openai.OpenAI`, `anthropic.Anthropic`), built with `client_options()`."""
    sdk: ClassVar[ModuleType]
    answer_field: ClassVar[str]
    """The list every answer of the API has (`choices`, `content`): without it, a body is not the API's JSON."""

    def __init__(self, config: ProviderConfig, on_retry: Notice | None = None):
        self.config = config.model_copy(update={"provider": self.wire})
        self.model = config.model or self.default_model
        self.name = f"{self.kind}/{self.model}"
        self.on_retry = on_retry
        self.closed = threading.Event()
        """Set by `close()`: a call still under way (an interrupted batch's) retries no more."""
        self.cassette: Cassette | None = None
        if config.replay:
            self.cassette = Cassette(config.replay, "replay")
        elif config.record:
            self.cassette = Cassette(config.record, "record")
        self.client = self.client_class(**self.client_options())

    def api_key(self) -> str:
        if self.config.replay:
            return "replayed-no-key"
        key = self.config.key()
        if key:
            return key
        if self.config.base_url:
            return "local-no-key"
        raise BadInput(f"{self.key_variable} is not set (nor V3AST_MODEL_API_KEY; or give --base-url for a local "
                       "endpoint, or --replay a cassette)")

    def client_options(self) -> dict:
        """What both official SDK clients take: key, endpoint, timeout, our retries only, the cassette's transport."""
        return {
            "api_key": self.api_key(), "base_url": self.config.base_url, "timeout": self.config.request_timeout,
            "max_retries": 0,
            "http_client": self.cassette.client(self.config.request_timeout) if self.cassette else None,
        }

    def send(self, system: str, user: str, schema: type[BaseModel]) -> tuple[str, Usage]:
        """One request; the raw structured answer as JSON text. Raises TransientError or ProviderError."""
        raise NotImplementedError

    def request(self, create: Callable[[], Any]) -> Any:
        """The answer of one SDK request, `create` asking for the raw response; a failure is a TransientError or
        a ProviderError, and so is a 200 whose body is not the API's JSON (a proxy's HTML page, a body cut off)."""
        try:
            raw = create()
        except self.sdk.APIError as error:
            raise translate_sdk_error(error, self.sdk, self.name, self.config.request_timeout) from error
        try:
            answer = raw.parse()
        except ValueError:  # the SDK's json.loads of the body
            answer = None
        if not isinstance(getattr(answer, self.answer_field, None), list):
            raise TransientError(f"HTTP {raw.status_code} but the body is not the API's JSON: "
                                 f"{excerpt(raw.http_response.text)}")
        return answer

    def complete_structured(self, system: str, user: str, schema: type[Schema]) -> tuple[Schema, Usage]:
        total, raw_texts, problem = Usage(), [], ""
        for _ in range(self.config.malformed_attempts):
            try:
                (raw, usage), retries = with_backoff(lambda: self.send(system, user, schema), self.config.retry,
                                                     sleep=self._pause, on_retry=self._retrying)
            except RetriesExhausted as error:
                total += Usage(calls=error.retries + 1, retries=error.retries)
                raise ProviderError(f"{self.name}: {error}", total) from None
            except ProviderError as error:
                raise type(error)(str(error), total + error.usage) from None
            total += usage + Usage(calls=retries, retries=retries)
            try:
                return schema.model_validate_json(raw), total
            except ValidationError as error:
                raw_texts.append(raw)
                total += Usage(malformed=1)
                problem = first_problem(error)
        raise MalformedOutput(
            f"{self.name}: answer did not fit {schema.__name__} in {self.config.malformed_attempts} attempts "
            f"(last: {problem})", raw_texts, total)

    def _retrying(self, error: BaseException, attempt: int, delay: float) -> None:
        if self.on_retry is not None and not self.closed.is_set():
            self.on_retry(f"{self.name}: {error}; retrying in {delay:.1f} s "
                          f"(attempt {attempt} of {self.config.retry.attempts})")

    def _pause(self, seconds: float) -> None:
        if self.closed.wait(seconds):
            raise ProviderError(f"{self.name}: closed before the next attempt", Usage())

    def close(self) -> None:
        self.closed.set()
        self.client.close()


def first_problem(error: ValidationError) -> str:
    return plain_problems(error)[0].replace("(blueprint):", "(answer):", 1)


def translate_sdk_error(error: Exception, sdk: ModuleType, name: str, timeout: float) -> Exception:
    """An SDK exception as TransientError (worth retrying), CassetteMiss, or ProviderError (final)."""
    if isinstance(error, sdk.APITimeoutError):
        return TransientError(f"request timed out after {timeout:g} s")
    if isinstance(error, sdk.APIConnectionError):
        if isinstance(error.__cause__, CassetteMiss):
            return error.__cause__
        unreachable = why_unreachable(error)
        if unreachable:
            return EndpointUnreachable(f"cannot reach {endpoint_of(error)}: {unreachable}", Usage(calls=1))
        return TransientError(f"connection failed: {error.__cause__ or error}")
    if isinstance(error, sdk.APIStatusError):
        message = f"HTTP {error.status_code}: {api_error_message(error)}"
        if error.status_code in TRANSIENT_STATUSES or error.status_code >= 500:
            return TransientError(message, retry_after_seconds(error.response.headers))
        return ProviderError(f"{name}: {message}", Usage(calls=1))
    return error


def excerpt(body: str, limit: int = 80) -> str:
    """The start of a response body, on one line."""
    flat = " ".join(body.split())
    return repr(flat if len(flat) <= limit else f"{flat[:limit]}…") if flat else "(empty)"


UNREACHABLE = {
    "connection refused": "connection refused",
    "name or service not known": "unknown host",
    "nodename nor servname": "unknown host",
    "temporary failure in name resolution": "unknown host",
    "no route to host": "no route to host",
}


def why_unreachable(error: BaseException) -> str:
    """`connection refused` or `unknown host` when that is what a connection error came from, else ""."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        text = str(seen).lower()
        found = next((said for words, said in UNREACHABLE.items() if words in text), "")
        if found:
            return found
        seen = seen.__cause__ or seen.__context__
    return ""


def endpoint_of(error: Exception) -> str:
    request = getattr(error, "request", None)
    url = getattr(request, "url", None)
    if url is None:
        return "the endpoint"
    return f"{url.scheme}://{url.netloc.decode() if isinstance(url.netloc, bytes) else url.netloc}"


def api_error_message(error: Exception) -> str:
    """The message inside an API error body (OpenAI and Anthropic shapes), else the SDK's text."""
    body = getattr(error, "body", None)
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        if isinstance(inner.get("message"), str):
            return inner["message"]
    return str(getattr(error, "message", error))
