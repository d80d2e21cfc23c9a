"""Retrying, in one place: tenacity with a named policy per use.

A call that fails transiently raises an error `with_backoff` is told to retry (by default `TransientError`, which
carries the server's Retry-After when it sent one). The next attempt comes after the Retry-After, or else after an
exponential, jittered wait, until the policy's attempts run out or the next wait would take the waits together past
the policy's cap; then `RetriesExhausted` holds the last error."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel
from tenacity import RetryCallState, RetryError, Retrying, retry_if_exception_type

Result = TypeVar("Result")


class RetryPolicy(BaseModel):
    """How often and how long to retry a call that failed transiently."""

    name: str = "request"
    """What is retried, named when retries are given up."""
    attempts: int = 5
    """Total attempts, the first included."""
    base_delay: float = 1.0
    """Seconds before the first retry when the server gives no Retry-After; doubled each time, jittered."""
    max_delay: float = 30.0
    """Upper bound of one wait the policy chooses itself (a server's Retry-After is honoured, within `max_total`)."""
    max_total: float = 300.0
    """Upper bound of all waits together: a retry whose wait would pass it is not made."""
    jitter: bool = True
    """Wait between half and all of the exponential delay, so that many clients do not retry in step."""


class TransientError(Exception):
    """A failure worth retrying; `retry_after` is the server's hint in seconds, if any."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class RetriesExhausted(Exception):
    """The policy gave up; `last` is the last attempt's error and `retries` the attempts after the first."""

    def __init__(self, last: BaseException, attempts: int, why: str = ""):
        super().__init__(f"gave up after {attempts} attempts{why}: {last}")
        self.last, self.retries = last, attempts - 1


OnRetry = Callable[[BaseException, int, float], None]
"""Told before each retry: what failed, the number of the attempt to come, and the seconds until it."""


def with_backoff(call: Callable[[], Result], policy: RetryPolicy, *,
                 retry_on: tuple[type[BaseException], ...] = (TransientError,),
                 sleep: Callable[[float], None] = time.sleep, on_retry: OnRetry | None = None) -> tuple[Result, int]:
    """`call()` until it stops raising one of `retry_on`; its result and the number of retries. Any other error
    passes through at once; an error raised by `sleep` (an interrupted wait) too."""
    retrying = Retrying(
        retry=retry_if_exception_type(retry_on), wait=lambda state: delay_before_retry(state, policy),
        stop=lambda state: _stops(state, policy), sleep=sleep,
        before_sleep=None if on_retry is None else lambda state: on_retry(
            _error(state), state.attempt_number + 1, state.upcoming_sleep))
    try:
        result = retrying(call)
    except RetryError as gave_up:
        state = gave_up.last_attempt
        why = ("" if state.attempt_number >= policy.attempts else
               f" (the next wait would pass the {policy.name} policy's {policy.max_total:g} s cap on waiting)")
        raise RetriesExhausted(state.exception(), state.attempt_number, why) from state.exception()
    return result, retrying.statistics["attempt_number"] - 1


def delay_before_retry(state: RetryCallState, policy: RetryPolicy) -> float:
    """The server's Retry-After when it sent one, else the policy's exponential backoff."""
    retry_after = getattr(_error(state), "retry_after", None)
    if retry_after is not None and retry_after >= 0:
        return float(retry_after)
    backoff = min(policy.max_delay, policy.base_delay * 2 ** (state.attempt_number - 1))
    return backoff * random.uniform(0.5, 1.0) if policy.jitter else backoff


def retry_after_seconds(headers: object) -> float | None:
    """Retry-After (seconds) or retry-after-ms from a response's headers; None if absent or a date."""
    get = getattr(headers, "get", None)
    if get is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = get(name)
        if value:
            try:
                return float(value) * scale
            except ValueError:
                continue
    return None


def _stops(state: RetryCallState, policy: RetryPolicy) -> bool:
    return state.attempt_number >= policy.attempts or state.idle_for + state.upcoming_sleep > policy.max_total


def _error(state: RetryCallState) -> BaseException:
    outcome = state.outcome
    if outcome is None or outcome.exception() is None:
        raise AssertionError("tenacity asked for a wait after an attempt that did not fail")
    return outcome.exception()
