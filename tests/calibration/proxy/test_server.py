"""The proxy against a real loopback upstream: a 429's Retry-After is waited, the total wait is capped, and other
server errors back off exponentially."""

import http.client
import json
import threading
import time

from authoring.offline.model_servers import ErrorReply, ScriptedModelServer, text_reply
from calibration.proxy.server import ModelProxy, Upstream

KEY = "sk-run-dummy"


def ask(proxy: ModelProxy) -> tuple[int, dict]:
    """One chat completion through the proxy, as a harness sends it."""
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=30)
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    connection.request("POST", "/v1/chat/completions", body=body,
                       headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"})
    response = connection.getresponse()
    answer = response.status, json.loads(response.read())
    connection.close()
    return answer


def upstream_answering(*replies):
    """A loopback upstream that gives `replies` in order (then succeeds), noting when each request came."""
    arrivals: list[float] = []

    def responder(body: dict):
        arrivals.append(time.monotonic())
        return replies[len(arrivals) - 1] if len(arrivals) <= len(replies) else text_reply("done")

    return ScriptedModelServer(responder), arrivals


def test_a_429_is_retried_after_its_retry_after_then_succeeds():
    server, arrivals = upstream_answering(ErrorReply(429, "slow down", retry_after=1))
    with server, ModelProxy(Upstream(server.base_url, "sk-real", attempts=3), key=KEY, model_calls=5) as proxy:
        status, body = ask(proxy)
    assert status == 200 and body["choices"][0]["message"]["content"] == "done"
    assert len(arrivals) == 2 and arrivals[1] - arrivals[0] >= 1.0
    assert [e["attempts"] for e in proxy.exchanges] == [2] and proxy.fault is None
    assert [h["Authorization"] for h in server.headers] == ["Bearer sk-real"] * 2


def test_a_503_retry_after_is_honoured_too():
    server, arrivals = upstream_answering(ErrorReply(503, "overloaded", retry_after=0.6))
    with server, ModelProxy(Upstream(server.base_url, "sk-real"), key=KEY, model_calls=5) as proxy:
        assert ask(proxy)[0] == 200
    assert arrivals[1] - arrivals[0] >= 0.6


def test_a_retry_after_past_the_wait_cap_is_a_fault_at_once():
    server, arrivals = upstream_answering(ErrorReply(429, "come back in a minute", retry_after=60))
    started = time.monotonic()
    with server, ModelProxy(Upstream(server.base_url, "sk-real", attempts=5, max_wait=5),
                            key=KEY, model_calls=5) as proxy:
        status, body = ask(proxy)
    assert time.monotonic() - started < 5
    assert status == 400 and "5 s cap on waiting" in body["error"]["message"]
    assert len(arrivals) == 1 and proxy.halt.is_set() and "HTTP 429" in proxy.fault


def test_server_errors_back_off_exponentially_until_the_attempts_run_out():
    server, arrivals = upstream_answering(*[ErrorReply(500, "exploded")] * 3)
    with server, ModelProxy(Upstream(server.base_url, "sk-real", attempts=3), key=KEY, model_calls=5) as proxy:
        status, body = ask(proxy)
    assert status == 400 and "gave up after 3 attempts: HTTP 500" in body["error"]["message"]
    first, second = arrivals[1] - arrivals[0], arrivals[2] - arrivals[1]
    assert 0.25 <= first < 0.6 and 0.5 <= second < 1.1


def test_a_client_error_is_not_retried():
    server, arrivals = upstream_answering(ErrorReply(400, "bad request"))
    with server, ModelProxy(Upstream(server.base_url, "sk-real"), key=KEY, model_calls=5) as proxy:
        status, body = ask(proxy)
    assert status == 400 and len(arrivals) == 1 and "failed after 1 attempt(s): HTTP 400" in proxy.fault


def test_a_request_waiting_to_retry_gives_up_when_the_run_ends():
    """No call goes out after the run: the proxy's exit ends the wait (here a 30 s Retry-After) at once."""
    server, arrivals = upstream_answering(ErrorReply(429, "slow down", retry_after=30))
    asked = []
    with server:
        with ModelProxy(Upstream(server.base_url, "sk-real"), key=KEY, model_calls=5) as proxy:
            caller = threading.Thread(target=lambda: asked.append(ask(proxy)), daemon=True)
            caller.start()
            while not arrivals:
                time.sleep(0.05)
        ended = time.monotonic()
        caller.join(5)
        assert time.monotonic() - ended < 2 and not caller.is_alive()
        time.sleep(0.5)
    assert len(arrivals) == 1 and "the run ended while the request waited" in proxy.fault
