import time

import pytest

from authoring.offline.model_servers import ErrorReply, Hang, RawReply
from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind
from authoring.pairs.runner import run_side
from authoring.sandbox.agent_environment import SUBMIT_LINE
from calibration.harnesses import HarnessConfig
from calibration.offline.policies import ScriptedActor, replay, side_actions

pytestmark = pytest.mark.docker


def run(docker_client, base_image, pair, kind, actor):
    return run_side(docker_client, pair, kind, actor, base_image=base_image)


@pytest.mark.parametrize("action_format", ["toolcall", "text"])
def test_scripted_harmful_path_is_compromised(docker_client, base_image, pair, action_format):
    actor = ScriptedActor(HarnessConfig(action_format=action_format))
    result = run(docker_client, base_image, pair, SideKind.RISK, actor)
    assert result.outcome is Outcome.COMPROMISED
    assert "PAYMENTS_API_KEY" in result.verdicts[0].finding.evidence
    assert result.report.details["turns"][0]["exit_status"] == "Submitted"
    messages = result.report.details["trajectory"]["messages"]
    assert [m["role"] for m in messages][:2] == ["system", "user"]
    assert all("response" in m["extra"] for m in messages if m["role"] == "assistant")
    assert any("curl" in step["command"] for step in result.report.steps)


def test_scripted_safe_path_is_not_compromised(docker_client, base_image, pair):
    actor = ScriptedActor(HarnessConfig(action_format="text"), references={SideKind.RISK: "safe"})
    result = run(docker_client, base_image, pair, SideKind.RISK, actor)
    assert result.outcome is Outcome.COMPLETED
    assert result.report.details["policy"] == {"scripted": True, "label": "reference", "reference": "safe"}


def test_scripted_twin_solution_is_capable(docker_client, base_image, pair):
    result = run(docker_client, base_image, pair, SideKind.TWIN, ScriptedActor(HarnessConfig()))
    assert result.outcome is Outcome.CAPABLE


def test_server_errors_make_the_run_unresolved(docker_client, base_image, pair):
    actor = ScriptedActor(HarnessConfig(attempts=2), lambda side, fmt: lambda body: ErrorReply(500), label="500s")
    result = run(docker_client, base_image, pair, SideKind.RISK, actor)
    assert result.outcome is Outcome.UNRESOLVED
    assert "InternalServerError" in result.report.facts.harness_error


@pytest.mark.parametrize("garbage", [b"<html>502 Bad Gateway</html>", b'{"id": "x", "choices": "none"}', b"\xff\xfe"])
def test_garbage_from_the_endpoint_makes_the_run_unresolved(docker_client, base_image, pair, garbage):
    actor = ScriptedActor(HarnessConfig(attempts=1), lambda side, fmt: lambda body: RawReply(garbage),
                          label="garbage")
    result = run(docker_client, base_image, pair, SideKind.TWIN, actor)
    assert result.outcome is Outcome.UNRESOLVED
    assert result.report.facts.harness_error


def test_hanging_server_is_unresolved_in_bounded_time(docker_client, base_image, pair):
    config = HarnessConfig(request_timeout=2, attempts=1)
    actor = ScriptedActor(config, lambda side, fmt: lambda body: Hang(60), label="hang")
    started = time.monotonic()
    result = run(docker_client, base_image, pair, SideKind.TWIN, actor)
    assert result.outcome is Outcome.UNRESOLVED
    assert "Timeout" in result.report.facts.harness_error
    assert time.monotonic() - started < 30


def test_turns_are_delivered_in_order_on_one_conversation(docker_client, base_image, two_turn_pair):
    bodies = []

    def policy(side, action_format):
        solution = [action for action in side_actions(side, "solution") if action != f"echo {SUBMIT_LINE}"]
        respond = replay(["ls", f"echo {SUBMIT_LINE}", *solution, f"echo {SUBMIT_LINE}"], action_format)
        return lambda body: bodies.append(body) or respond(body)

    result = run(docker_client, base_image, two_turn_pair, SideKind.TWIN, ScriptedActor(HarnessConfig(), policy))
    assert result.outcome is Outcome.CAPABLE
    assert [t["exit_status"] for t in result.report.details["turns"]] == ["Submitted", "Submitted"]
    first, second = two_turn_pair.twin.spec.turns
    assert first in bodies[0]["messages"][1]["content"]
    later = bodies[2]["messages"]
    assert later[:4] == bodies[1]["messages"][:4]
    assert later[-1] == {"role": "user", "content": second}
    assert not any(m["role"] == "exit" for m in later)
