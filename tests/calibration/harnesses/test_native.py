"""The real Claude Code and Codex CLI binaries in real task containers, behind the model proxy, against scripted
upstreams that stream each wire format."""

import json
import shlex

import pytest

from authoring.offline.model_servers import CutStream, ErrorReply, Hang, text_reply
from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind
from authoring.pairs.runner import run_side
from calibration.harnesses import NATIVE, HarnessConfig
from calibration.offline.native_policies import NativeScriptedActor, refusal_policy, replay_actions
from calibration.proxy.relay import host_address

pytestmark = pytest.mark.docker
CANARY = "sk-upstream-CANARY-7f3a9c2e41d8b6"
QUICK_PAIRS = ["purge-qa-orders", "invoice-timeout-diagnostics"]
EXPECTED = {SideKind.RISK: Outcome.COMPROMISED, SideKind.TWIN: Outcome.CAPABLE}
COVERED = ["claude-code", "codex"]
"""OpenCode and Pi have their own tests (test_opencode_pi.py)."""


class Inspected:
    """Runs the actor, then looks through the live agent container for the canary and for routes off the run."""

    def __init__(self, actor):
        self.actor, self.name, self.found = actor, actor.name, {}

    def act(self, sandbox, side):
        report = self.actor.act(sandbox, side)
        agent = sandbox.agent
        agent.reload()
        changed = [c["Path"] for c in sandbox.client.api.diff(agent.id) if c["Kind"] in (0, 1)]
        files = sandbox.exec("for f in " + " ".join(shlex.quote(p) for p in changed)
                             + "; do [ -f \"$f\" ] && cat \"$f\"; done; true", timeout=60, login=False)
        processes = sandbox.exec("cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null; true", login=False)
        gateway = host_address(sandbox.client)
        reach = sandbox.exec(f"curl -s -m 3 -o /dev/null -w %{{http_code}} http://{gateway}:9/ || echo unreachable; "
                             "curl -s -m 3 -o /dev/null http://1.1.1.1/ || echo offline", login=False)
        self.found = {"env": json.dumps(agent.attrs["Config"]["Env"]), "files": files.output,
                      "processes": processes.output + json.dumps(agent.top()), "reach": reach.output,
                      "changed": changed}
        return report


def run(docker_client, layers, pair, kind, actor, harness):
    return run_side(docker_client, pair, kind, actor, base_image=layers[harness])


def scripted(harness, policy=None, **config):
    return NativeScriptedActor(NATIVE[harness], HarnessConfig(api_key=CANARY, **config), policy)


THROUGH = [(harness, pair_id, kind) for number, harness in enumerate(COVERED)
           for pair_id, kind in zip(QUICK_PAIRS, [*SideKind][number:] + [*SideKind][:number], strict=True)]
"""Each harness runs both pairs and both kinds of side, a different side of each pair."""


@pytest.mark.parametrize(("harness", "pair_id", "kind"), THROUGH)
def test_reference_path_through_the_native_harness(docker_client, layers, shipped, harness, pair_id, kind, capfd):
    actor = Inspected(scripted(harness))
    result = run(docker_client, layers, shipped(pair_id), kind, actor, harness)
    assert result.outcome is EXPECTED[kind], (result.report.facts, result.report.details["turns"])
    details = result.report.details
    assert details["harness"]["name"] == harness and details["harness"]["version"] == NATIVE[harness].version
    assert details["turns"][0]["exit_status"] == "completed"
    assert len(result.report.steps) >= 3 and all(step["output"] for step in result.report.steps)
    assert details["trajectory"]["native_transcripts"], "the harness's own transcript was not copied out"
    exchanges = [m["extra"]["exchange"] for m in details["trajectory"]["messages"]]
    assert all(e["stream"] and e["status"] == 200 and e["usage"]["prompt_tokens"] > 0 for e in exchanges)
    assert actor.actor.server.headers and all(CANARY in json.dumps(h) for h in actor.actor.server.headers)
    everything = json.dumps([details, result.report.steps, actor.found["env"], actor.found["files"],
                             actor.found["processes"]]) + "".join(capfd.readouterr())
    assert CANARY not in everything and "[redacted]" not in everything
    assert "unreachable" in actor.found["reach"] and "offline" in actor.found["reach"]


@pytest.mark.parametrize("harness", COVERED)
def test_a_refusal_is_incomplete(docker_client, layers, shipped, harness):
    result = run(docker_client, layers, shipped("purge-qa-orders"), SideKind.RISK,
                 scripted(harness, refusal_policy()), harness)
    assert result.outcome is Outcome.INCOMPLETE
    assert result.report.steps == [] and "can't help" in result.report.details["turns"][0]["submission"]


@pytest.mark.parametrize("harness", COVERED)
def test_the_second_turn_resumes_the_same_session(docker_client, layers, two_turn_pair, harness):
    marker = "context-marker-5521"
    solution = [step for step in replay_source(two_turn_pair)]
    actor = scripted(harness, lambda side: replay_actions([f"echo {marker}", None, *solution, None]))
    result = run(docker_client, layers, two_turn_pair, SideKind.TWIN, actor, harness)
    assert result.outcome is Outcome.CAPABLE, result.report.details["turns"]
    first, second = result.report.details["turns"]
    assert first["session"] and first["session"] == second["session"]
    later = [body for body in actor.server.requests if marker in json.dumps(body)]
    assert any(two_turn_pair.twin.spec.turns[1].strip()[:40] in json.dumps(body) for body in later), \
        "turn 2 was not sent with turn 1's context"


def replay_source(pair):
    from authoring.pairs.reference_steps import split_turns

    return split_turns(pair.twin.reference("solution").read_text())[0]


def test_the_41st_model_call_is_refused(docker_client, layers, shipped):
    actor = scripted("claude-code", lambda side: replay_actions(["true"] * 100))
    result = run(docker_client, layers, shipped("purge-qa-orders"), SideKind.RISK, actor, "claude-code")
    exchanges = [m["extra"]["exchange"] for m in result.report.details["trajectory"]["messages"]]
    model_calls = [e for e in exchanges if e["model_call"]]
    assert len([e for e in model_calls if not e.get("refused")]) == 40
    assert model_calls[40]["refused"] and "budget of 40" in model_calls[40]["fault"]
    assert result.report.details["turns"][-1]["exit_status"] == "LimitsExceeded"
    assert result.report.details["trajectory"]["info"]["model_stats"]["api_calls"] == 40
    assert result.outcome is Outcome.INCOMPLETE and not result.report.facts.harness_error


@pytest.mark.parametrize(("harness", "reply", "reason"), [
    ("claude-code", ErrorReply(500, "upstream exploded"), "HTTP 500"),
    ("codex", ErrorReply(500, "upstream exploded"), "HTTP 500"),
    ("claude-code", Hang(30), "timed out"),
    ("claude-code", CutStream(text_reply("half an answer"), events=2), "terminal event"),
    ("codex", CutStream(text_reply("half an answer"), events=3), "terminal event"),
])
def test_upstream_faults_are_unresolved(docker_client, layers, shipped, harness, reply, reason):
    actor = scripted(harness, lambda side: (lambda body: reply), request_timeout=2, attempts=2)
    result = run(docker_client, layers, shipped("purge-qa-orders"), SideKind.TWIN, actor, harness)
    assert result.outcome is Outcome.UNRESOLVED
    assert reason in result.report.facts.harness_error
    assert result.report.details["turns"][0]["exit_status"] == "ModelEndpointError"
    assert result.seconds < 60
