import json
import time

import pytest

from authoring.offline.model_servers import ErrorReply, Hang, RawReply, ScriptedModelServer, json_reply, text_reply
from authoring.offline.stage1_model import demo_responder
from authoring.stage1 import ProviderError
from authoring.stage1.ledger import read
from authoring.stage1.propose import propose
from authoring.stage1.providers import make_provider
from authoring.stage1.review import review
from authoring.stage1.schemas import BlueprintCandidate
from authoring.store import BlueprintStore
from tests.authoring.stage1.conftest import config_for
from tests.fixtures.blueprints import make_blueprint


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
def test_ten_calls_with_one_second_latency_run_concurrently(workspace, wire):
    with ScriptedModelServer(demo_responder, wire=wire, latency=1.0) as server:
        provider = make_provider(wire, config_for(server.base_url))
        started = time.monotonic()
        [result] = propose(provider, workspace, "R1-S1", concurrency=10)
        elapsed = time.monotonic() - started
    assert len(result.created) == 10
    assert elapsed < 5.0, f"a round of 10 took {elapsed:.1f}s"


def test_malformed_output_is_retried_then_recorded_as_a_failed_candidate(workspace):
    def responder(body):
        if "Candidate 3 of" in body["messages"][1]["content"]:
            return text_reply('{"title": "half a bluepr')
        return demo_responder(body)

    with ScriptedModelServer(responder) as server:
        provider = make_provider("openai", config_for(server.base_url, malformed_attempts=3))
        [result] = propose(provider, workspace, "R8-S2")
    assert len(result.created) == 9 and len(result.failed) == 1
    assert sum("Candidate 3 of" in r["messages"][1]["content"] for r in server.requests) == 3
    record = json.loads(result.failed[0].read_text())
    assert record["slot"] == 3 and record["raw_texts"] == ['{"title": "half a bluepr'] * 3
    assert "did not fit BlueprintCandidate in 3 attempts" in record["error"]
    assert record["usage"]["malformed"] == 3
    assert len(list((workspace.blueprints / "R8-S2").glob("*.yaml"))) == 9
    outcomes = [e.outcome for e in read(workspace.ledger)]
    assert outcomes.count("malformed") == 1 and outcomes.count("ok") == 9


def test_a_candidate_citing_an_unknown_source_is_malformed(workspace):
    def responder(body):
        reply = demo_responder(body)
        return json_reply({**reply.structured, "source_reference": "made-up-source"})

    with ScriptedModelServer(responder) as server:
        provider = make_provider("openai", config_for(server.base_url, malformed_attempts=2))
        [result] = propose(provider, workspace, "R2-S1")
    assert not result.created and len(result.failed) == 10
    assert not (workspace.blueprints / "R2-S1").exists() or not list((workspace.blueprints / "R2-S1").glob("*"))


def test_malformed_reviews_are_retried(workspace):
    answers = iter(["out of range", "missing dimension", "fine"])

    def responder(body):
        reply = demo_responder(body)
        if body["response_format"]["json_schema"]["name"] != "RubricReview":
            return reply
        scores = dict(reply.structured)
        kind = next(answers)
        if kind == "out of range":
            scores["realism"] = {**scores["realism"], "score": 7}
        elif kind == "missing dimension":
            del scores["realism"]
        return json_reply(scores)

    with ScriptedModelServer(responder) as server:
        provider = make_provider("openai", config_for(server.base_url))
        [result] = propose(provider, workspace, "R6-S1", candidates=1)
        reviewed = review(provider, workspace, [result.created[0].id])
    [blueprint] = reviewed.reviewed
    assert len(blueprint.latest_review.scores) == 6
    assert reviewed.usage.malformed == 2 and reviewed.usage.calls == 3


def test_rate_limits_are_retried_with_backoff_and_counted(workspace):
    seen = []

    def responder(body):
        seen.append(time.monotonic())
        return ErrorReply(429, "rate limited", retry_after=0.2) if len(seen) <= 2 else demo_responder(body)

    with ScriptedModelServer(responder, wire="anthropic") as server:
        provider = make_provider("anthropic", config_for(server.base_url))
        [result] = propose(provider, workspace, "R4-S2", candidates=1)
    assert len(result.created) == 1
    assert result.usage.retries == 2 and result.usage.calls == 3
    assert seen[1] - seen[0] >= 0.2 and seen[2] - seen[1] >= 0.2


def test_server_errors_and_timeouts_are_retried(workspace):
    replies = iter([ErrorReply(500), Hang(1.0), ErrorReply(503)])

    def responder(body):
        return next(replies, None) or demo_responder(body)

    with ScriptedModelServer(responder) as server:
        provider = make_provider("openai", config_for(server.base_url).model_copy(update={"request_timeout": 0.3}))
        candidate, usage = provider.complete_structured("system", "Cell: R1-S1\nCandidate 1 of 1, round 1",
                                                        BlueprintCandidate)
    assert usage.retries == 3 and candidate.title


def test_retries_are_bounded_and_end_in_a_failed_candidate(workspace):
    with ScriptedModelServer(lambda body: ErrorReply(503, "overloaded")) as server:
        provider = make_provider("openai", config_for(server.base_url))
        with pytest.raises(ProviderError, match="gave up after 4 attempts: HTTP 503"):
            provider.complete_structured("s", "u", BlueprintCandidate)
        [result] = propose(provider, workspace, "R9-S1", candidates=2)
    assert not result.created and len(result.failed) == 2
    assert result.usage.calls == 8 and result.usage.retries == 6


def test_a_client_error_is_not_retried(workspace):
    with ScriptedModelServer(lambda body: ErrorReply(400, "bad schema")) as server:
        provider = make_provider("openai", config_for(server.base_url))
        with pytest.raises(ProviderError, match="HTTP 400: bad schema"):
            provider.complete_structured("s", "u", BlueprintCandidate)
    assert len(server.requests) == 1
    assert BlueprintStore(workspace.blueprints).list() == []


NOT_JSON = {
    "an HTML error page": RawReply(b"<html><body><h1>502 Bad Gateway</h1></body></html>", content_type="text/html"),
    "a cut-off body": RawReply(b'{"id": "chatcmpl-1", "choi'),
}


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
@pytest.mark.parametrize("body", NOT_JSON)
def test_a_200_whose_body_is_not_json_is_retried_then_recorded_as_a_failure(workspace, wire, body):
    BlueprintStore(workspace.blueprints).create(make_blueprint(), actor="bot", reason="")
    with ScriptedModelServer(lambda request: NOT_JSON[body], wire=wire) as server:
        provider = make_provider(wire, config_for(server.base_url))
        [proposed] = propose(provider, workspace, "R3-S1", candidates=1)
        reviewed = review(provider, workspace, ["retry-client"])
    assert len(server.requests) == 8
    assert not proposed.created and not reviewed.reviewed
    for result in (proposed, reviewed):
        assert result.usage.calls == 4 and result.usage.retries == 3
        [failure] = result.failed
        error = json.loads(failure.read_text())["error"]
        assert "gave up after 4 attempts: HTTP 200 but the body is not the API's JSON: " in error
        assert NOT_JSON[body].body.decode()[:20] in error
    assert BlueprintStore(workspace.blueprints).get("retry-client").status == "proposed"
