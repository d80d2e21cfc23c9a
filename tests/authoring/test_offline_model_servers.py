import json
import time
from concurrent.futures import ThreadPoolExecutor

import anthropic
import httpx2
import openai
import pytest

from authoring.offline.model_servers import (
    ErrorReply,
    Hang,
    ScriptedModelServer,
    json_reply,
    text_reply,
    tool_call_reply,
)

MESSAGES = [{"role": "user", "content": "hello"}]


def openai_client(server: ScriptedModelServer, **options) -> openai.OpenAI:
    return openai.OpenAI(api_key="test", base_url=server.base_url, max_retries=0, **options)


def anthropic_client(server: ScriptedModelServer, **options) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test", base_url=server.base_url, max_retries=0, **options)


def test_openai_text_reply_parses_in_the_sdk_with_usage():
    with ScriptedModelServer(lambda body: text_reply("hi there")) as server:
        response = openai_client(server).chat.completions.create(model="m", messages=MESSAGES)
    assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
    assert response.object == "chat.completion" and response.model == "m"
    assert response.choices[0].message.content == "hi there"
    assert response.choices[0].finish_reason == "stop"
    assert response.usage.total_tokens == response.usage.prompt_tokens + response.usage.completion_tokens > 0
    assert server.requests == [{"model": "m", "messages": MESSAGES}]


def test_openai_tool_call_reply_carries_json_string_arguments():
    with ScriptedModelServer(lambda body: tool_call_reply("bash", {"command": "ls -la"})) as server:
        response = openai_client(server).chat.completions.create(model="m", messages=MESSAGES)
    choice = response.choices[0]
    call = choice.message.tool_calls[0]
    assert choice.finish_reason == "tool_calls"
    assert call.type == "function" and call.id.startswith("call_")
    assert call.function.name == "bash" and json.loads(call.function.arguments) == {"command": "ls -la"}


def test_openai_json_reply_is_the_message_content():
    format_ = {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object"}, "strict": True}}
    with ScriptedModelServer(lambda body: json_reply({"a": [1, 2]})) as server:
        response = openai_client(server).chat.completions.create(model="m", messages=MESSAGES,
                                                                 response_format=format_)
    assert json.loads(response.choices[0].message.content) == {"a": [1, 2]}
    assert server.requests[0]["response_format"] == format_


def test_openai_rate_limit_has_error_body_and_retry_after():
    with ScriptedModelServer(lambda body: ErrorReply(429, "slow down", retry_after=2)) as server:
        with pytest.raises(openai.RateLimitError) as caught:
            openai_client(server).chat.completions.create(model="m", messages=MESSAGES)
    assert caught.value.response.headers["retry-after"] == "2"
    assert caught.value.body["message"] == "slow down"


def test_stream_true_is_rejected_clearly():
    with ScriptedModelServer(lambda body: text_reply("x")) as server:
        with pytest.raises(openai.BadRequestError, match="stream: true is not supported"):
            openai_client(server).chat.completions.create(model="m", messages=MESSAGES, stream=True)


def test_a_hang_times_the_client_out():
    with ScriptedModelServer(lambda body: Hang(2)) as server:
        with pytest.raises(openai.APITimeoutError):
            openai_client(server, timeout=0.3).chat.completions.create(model="m", messages=MESSAGES)


def test_a_failing_responder_is_a_500_with_its_error():
    def broken(body):
        raise KeyError("scenario")

    with ScriptedModelServer(broken) as server:
        with pytest.raises(openai.InternalServerError, match="responder failed: KeyError"):
            openai_client(server).chat.completions.create(model="m", messages=MESSAGES)


def test_anthropic_forced_tool_gets_a_tool_use_block():
    tool = {"name": "emit", "description": "d", "input_schema": {"type": "object"}}
    with ScriptedModelServer(lambda body: json_reply({"k": "v"}), wire="anthropic") as server:
        response = anthropic_client(server).messages.create(
            model="m", max_tokens=64, messages=MESSAGES, tools=[tool], tool_choice={"type": "tool", "name": "emit"})
    block = response.content[0]
    assert block.type == "tool_use" and block.name == "emit" and block.input == {"k": "v"}
    assert response.stop_reason == "tool_use" and response.usage.input_tokens > 0


def test_anthropic_text_and_tool_call_blocks():
    with ScriptedModelServer(lambda body: tool_call_reply("bash", {"command": "pwd"}, content="let me look"),
                             wire="anthropic") as server:
        response = anthropic_client(server).messages.create(model="m", max_tokens=64, messages=MESSAGES)
    assert [b.type for b in response.content] == ["text", "tool_use"]
    assert response.content[1].input == {"command": "pwd"}


def test_anthropic_errors_have_the_anthropic_error_body():
    with ScriptedModelServer(lambda body: ErrorReply(429, "too many", retry_after=1), wire="anthropic") as server:
        with pytest.raises(anthropic.RateLimitError) as caught:
            anthropic_client(server).messages.create(model="m", max_tokens=64, messages=MESSAGES)
    assert caught.value.body == {"type": "error", "error": {"type": "rate_limit_error", "message": "too many"}}


def test_unknown_route_is_404():
    with ScriptedModelServer(lambda body: text_reply("x"), wire="anthropic") as server:
        response = httpx2.post(f"{server.base_url}/v1/chat/completions", json={})
    assert response.status_code == 404 and "POST /v1/messages" in response.json()["error"]["message"]


def test_latency_is_per_request_and_requests_run_concurrently():
    with ScriptedModelServer(lambda body: text_reply("x"), latency=0.5) as server:
        client = openai_client(server)
        started = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda _: client.chat.completions.create(model="m", messages=MESSAGES), range(8)))
        elapsed = time.monotonic() - started
    assert 0.5 <= elapsed < 2.0
    assert len(server.requests) == 8


def test_litellm_parses_tool_calls_and_text(monkeypatch):
    litellm = pytest.importorskip("litellm")
    replies = iter([tool_call_reply("bash", {"command": "echo hi"}), text_reply("done")])
    tools = [{"type": "function", "function": {"name": "bash", "parameters": {
        "type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}}]
    with ScriptedModelServer(lambda body: next(replies)) as server:
        first = litellm.completion(model="openai/qwen", api_base=server.base_url, api_key="x",
                                   messages=MESSAGES, tools=tools)
        second = litellm.completion(model="openai/qwen", api_base=server.base_url, api_key="x", messages=MESSAGES)
    call = first.choices[0].message.tool_calls[0]
    assert call.function.name == "bash" and json.loads(call.function.arguments) == {"command": "echo hi"}
    assert second.choices[0].message.content == "done"
    assert first.usage.prompt_tokens > 0


def test_unknown_wire_lists_the_available_ones():
    with pytest.raises(ValueError, match="available: openai, anthropic"):
        ScriptedModelServer(lambda body: text_reply("x"), wire="grpc")
