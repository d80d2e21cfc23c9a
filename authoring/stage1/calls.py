"""Many structured model calls at once, each ending in an answer or a recorded failure — never an exception."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
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
    """Run every call on at most `concurrency` threads, so a batch takes about as long as its slowest call.

    `on_done` gets each call as it finishes, in this thread, so its answer is used (written) at once.
    An interruption (Ctrl-C, an exception from `on_done`, or an endpoint nothing listens at) is raised at once:
    no call starts after it, and the calls under way are abandoned (their threads are daemons: the process
    does not wait for them, and nothing of theirs is written)."""
    if concurrency < 1:
        raise BadInput("--concurrency must be at least 1")
    waiting: queue.SimpleQueue[ModelCall] = queue.SimpleQueue()
    finished: queue.SimpleQueue[tuple[ModelCall, BaseException | None]] = queue.SimpleQueue()
    for call in calls:
        waiting.put(call)
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            try:
                call = waiting.get_nowait()
            except queue.Empty:
                return
            try:
                ask(provider, call, schema)
                finished.put((call, None))
            except BaseException as error:
                finished.put((call, error))

    for _ in range(min(concurrency, len(calls))):
        threading.Thread(target=work, name="model-call", daemon=True).start()
    try:
        for _ in calls:
            call, error = finished.get()
            if error is not None:
                raise error
            if on_done is not None:
                on_done(call)
    finally:
        stop.set()


def ask(provider: Provider, call: ModelCall, schema: type[BaseModel]) -> None:
    try:
        call.answer, call.usage = provider.complete_structured(call.prompt.system, call.prompt.user, schema)
    except MalformedOutput as error:
        call.error, call.raw_texts, call.usage = str(error), error.raw_texts, error.usage
    except EndpointUnreachable:
        raise  # every call would fail alike: ask_all stops and the command says it once
    except ProviderError as error:
        call.error, call.usage = str(error), error.usage
