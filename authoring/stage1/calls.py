"""Many structured model calls at once, each ending in an answer or a recorded failure — never an exception."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

from pydantic import BaseModel

from authoring.errors import BadInput
from authoring.stage1 import EndpointUnreachable, MalformedOutput, Provider, ProviderError
from authoring.stage1.inputs import Prompt
from authoring.stage1.usage import Usage


@dataclass
class ModelCall:
    prompt: Prompt
    answer: BaseModel | None = None
    usage: Usage = field(default_factory=Usage)
    error: str = ""
    raw_texts: list[str] = field(default_factory=list)
    """Every answer that did not fit the schema."""

    @property
    def outcome(self) -> str:
        return "ok" if self.answer is not None else ("malformed" if self.raw_texts else "failed")


def ask_all(provider: Provider, calls: list[ModelCall], schema: type[BaseModel], concurrency: int,
            on_done: Callable[[ModelCall], None] | None = None) -> None:
    """Run every call on a bounded thread pool, so a batch takes about as long as its slowest call.

    `on_done` gets each call as it finishes, in this thread, so its answer is used (written) at once.
    An interruption (Ctrl-C, an exception from `on_done`, or an endpoint nothing listens at) cancels the
    calls not yet started and is raised."""
    if concurrency < 1:
        raise BadInput("--concurrency must be at least 1")
    pool = ThreadPoolExecutor(max_workers=concurrency)
    try:
        futures = {pool.submit(ask, provider, call, schema): call for call in calls}
        for future in as_completed(futures):
            future.result()
            if on_done is not None:
                on_done(futures[future])
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def ask(provider: Provider, call: ModelCall, schema: type[BaseModel]) -> None:
    try:
        call.answer, call.usage = provider.complete_structured(call.prompt.system, call.prompt.user, schema)
    except MalformedOutput as error:
        call.error, call.raw_texts, call.usage = str(error), error.raw_texts, error.usage
    except EndpointUnreachable:
        raise  # every call would fail alike: ask_all stops and the command says it once
    except ProviderError as error:
        call.error, call.usage = str(error), error.usage
