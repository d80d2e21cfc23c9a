import pytest

from authoring.retry import RetriesExhausted, RetryPolicy, TransientError, with_backoff


def failing(*errors: BaseException):
    """A call that raises `errors` in order, then returns how many times it was called."""
    calls = []

    def call():
        calls.append(1)
        if len(calls) <= len(errors):
            raise errors[len(calls) - 1]
        return len(calls)

    return call


def test_retry_after_is_waited_and_backoff_doubles_otherwise():
    slept = []
    policy = RetryPolicy(attempts=5, base_delay=1.0, max_delay=30.0, jitter=False)
    call = failing(TransientError("a"), TransientError("429", retry_after=7), TransientError("b"))
    assert with_backoff(call, policy, sleep=slept.append) == (4, 3)
    assert slept == [1.0, 7.0, 4.0]


def test_attempts_run_out_with_the_last_error():
    told = []
    policy = RetryPolicy(attempts=3, base_delay=0.0)
    with pytest.raises(RetriesExhausted, match="gave up after 3 attempts: third") as raised:
        with_backoff(failing(*map(TransientError, ["first", "second", "third"])), policy, sleep=lambda s: None,
                     on_retry=lambda error, attempt, delay: told.append((str(error), attempt)))
    assert raised.value.retries == 2 and told == [("first", 2), ("second", 3)]


def test_no_wait_passes_the_total_cap():
    slept = []
    policy = RetryPolicy(name="test", attempts=10, max_total=10.0)
    call = failing(TransientError("x", retry_after=4), TransientError("y", retry_after=5), TransientError("z", 2))
    with pytest.raises(RetriesExhausted, match=r"after 3 attempts \(.*test policy's 10 s cap on waiting\): z"):
        with_backoff(call, policy, sleep=slept.append)
    assert slept == [4, 5]


def test_other_errors_pass_through_and_chosen_ones_are_retried():
    with pytest.raises(KeyError):
        with_backoff(failing(KeyError("k")), RetryPolicy(), sleep=lambda s: None)
    assert with_backoff(failing(OSError("busy")), RetryPolicy(), retry_on=(OSError,), sleep=lambda s: None) == (2, 1)
