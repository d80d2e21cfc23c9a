"""Exponential backoff for transient failures (rate limits, server errors, timeouts), honouring Retry-After."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

Result = TypeVar("Result")


class RetryPolicy(BaseModel):
    """How often and how long to retry a call that failed transiently."""

    attempts: int = 5
    """Total attempts, the first included."""
    base_delay: float = 1.0
    """Seconds before the first retry; doubled each time."""
    max_delay: float = 30.0
    """Upper bound of any single wait, Retry-After included."""


class TransientError(Exception):
    """A failure worth retrying; `retry_after` is the server's hint in seconds, if any."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class RetriesExhausted(Exception):
    def __init__(self, last: TransientError, attempts: int):
        super().__init__(f"gave up after {attempts} attempts: {last}")
        self.retries = attempts - 1


OnRetry = Callable[[TransientError, int, float], None]
"""Told before each retry: what failed, the number of the attempt to come, and the seconds until it."""


def with_backoff(call: Callable[[], Result], policy: RetryPolicy, sleep: Callable[[float], None] = time.sleep,
                 on_retry: OnRetry | None = None) -> tuple[Result, int]:
    """`call()` until it stops raising TransientError; returns its result and the number of retries."""
    for attempt in range(1, policy.attempts + 1):
        try:
            return call(), attempt - 1
        except TransientError as error:
            if attempt == policy.attempts:
                raise RetriesExhausted(error, attempt) from error
            delay = delay_before_retry(attempt, error.retry_after, policy)
            if on_retry is not None:
                on_retry(error, attempt + 1, delay)
            sleep(delay)
    raise AssertionError("unreachable")


def delay_before_retry(attempt: int, retry_after: float | None, policy: RetryPolicy) -> float:
    if retry_after is not None and retry_after >= 0:
        return min(retry_after, policy.max_delay)
    backoff = policy.base_delay * 2 ** (attempt - 1)
    return min(policy.max_delay, backoff * random.uniform(0.5, 1.0))


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
