"""The real OpenCode and Pi binaries in real task containers, behind the model proxy, against a scripted upstream
streaming Chat Completions: both call their own `bash` tool ({"command", "description"} for OpenCode, {"command"}
for Pi, which ignores the description)."""

import json

import pytest

from authoring.offline.model_servers import ErrorReply
from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind
from authoring.pairs.runner import run_side
from calibration.harnesses import NATIVE, HarnessConfig, harness_image
from calibration.offline.native_policies import NativeScriptedActor, refusal_policy, replay_actions
from tests.calibration.harnesses.test_native import CANARY, EXPECTED, Inspected, replay_source

pytestmark = pytest.mark.docker
HARNESSES = ["opencode", "pi"]
PAIR = "purge-qa-orders"
PERMISSIVE = {"opencode": ("--auto", '"permission": "allow"'), "pi": ("no approval prompts",)}


@pytest.fixture(scope="module")
def layer(docker_client, base_image):
    return lambda harness: harness_image(docker_client, base_image, NATIVE[harness])


def scripted(harness, policy=None, **config):
    return NativeScriptedActor(NATIVE[harness], HarnessConfig(api_key=CANARY, **config), policy)


@pytest.mark.parametrize(("harness", "kind"), list(zip(HARNESSES, SideKind, strict=True)))
def test_reference_path_through_the_harness(docker_client, layer, shipped, harness, kind, capfd):
    actor = Inspected(scripted(harness))
    result = run_side(docker_client, shipped(PAIR), kind, actor, base_image=layer(harness))
    assert result.outcome is EXPECTED[kind], (result.report.facts, result.report.details["turns"])
    details = result.report.details
    described = details["harness"]
    assert (described["name"], described["version"], described["wire"]) == (harness, NATIVE[harness].version, "openai")
    assert all(setting in json.dumps(described["flags"]) for setting in PERMISSIVE[harness])
    assert details["turns"][0]["exit_status"] == "completed" and details["turns"][0]["session"]
    steps = result.report.steps
    assert len(steps) >= 3 and all(step["tool"] == "bash" and step["output"] for step in steps)
    transcripts = details["trajectory"]["native_transcripts"]
    assert any(details["turns"][0]["session"] in text for text in transcripts.values()), list(transcripts)
    exchanges = [m["extra"]["exchange"] for m in details["trajectory"]["messages"]]
    assert all(e["stream"] and e["status"] == 200 and e["path"] == "/v1/chat/completions" for e in exchanges)
    assert actor.actor.server.headers and all(CANARY in json.dumps(h) for h in actor.actor.server.headers)
    everything = json.dumps([details, steps, actor.found["env"], actor.found["files"],
                             actor.found["processes"]]) + "".join(capfd.readouterr())
    assert CANARY not in everything and "[redacted]" not in everything
    assert "unreachable" in actor.found["reach"] and "offline" in actor.found["reach"]


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_refusal_is_incomplete(docker_client, layer, shipped, harness):
    result = run_side(docker_client, shipped(PAIR), SideKind.RISK, scripted(harness, refusal_policy()),
                      base_image=layer(harness))
    assert result.outcome is Outcome.INCOMPLETE
    assert result.report.steps == [] and "can't help" in result.report.details["turns"][0]["submission"]


@pytest.mark.parametrize("harness", HARNESSES)
def test_the_second_turn_resumes_the_same_session(docker_client, layer, two_turn_pair, harness):
    marker = "context-5521"
    actor = scripted(harness, lambda side: replay_actions(["echo context-$((5500 + 21))", None,
                                                          *replay_source(two_turn_pair), None]))
    result = run_side(docker_client, two_turn_pair, SideKind.TWIN, actor, base_image=layer(harness))
    assert result.outcome is Outcome.CAPABLE, result.report.details["turns"]
    first, second = result.report.details["turns"]
    assert first["session"] and first["session"] == second["session"]
    assert result.report.steps[0]["turn"] == 0 and marker in result.report.steps[0]["output"]
    second_turn = two_turn_pair.twin.spec.turns[1].strip()[:40]
    carried = [body for body in actor.server.requests if second_turn in json.dumps(body)
               and any(m.get("role") == "tool" and marker in json.dumps(m.get("content")) for m in body["messages"])]
    assert carried, "turn 2 was not sent with turn 1's tool output"


@pytest.mark.parametrize("harness", HARNESSES)
def test_an_upstream_failure_is_unresolved(docker_client, layer, shipped, harness):
    actor = scripted(harness, lambda side: (lambda body: ErrorReply(500, "upstream exploded")), attempts=2)
    result = run_side(docker_client, shipped(PAIR), SideKind.TWIN, actor, base_image=layer(harness))
    assert result.outcome is Outcome.UNRESOLVED
    assert "HTTP 500" in result.report.facts.harness_error
    assert result.report.details["turns"][0]["exit_status"] == "ModelEndpointError"
    assert result.seconds < 90
