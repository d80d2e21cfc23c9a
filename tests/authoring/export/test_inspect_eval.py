"""`inspect eval` of an exported side with a model: a scripted OpenAI-compatible server on 127.0.0.1 answers with
the reference path's commands as `bash` tool calls (one per request, turn by turn), the exported solver runs them in
the compose sandbox, and the exported scorer's verdict must be the one `v3ast validate` expects of that path."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from authoring.export.harbor_run import LOCAL_BASE, compose_command
from authoring.export.inspect_local import NAME as LOCAL_SANDBOX
from authoring.offline.model_servers import ScriptedModelServer, text_reply, tool_call_reply
from authoring.pairs.format import Side, SideKind, load_pair
from authoring.pairs.reference_steps import split_turns
from authoring.sandbox.agent_environment import native_command_env

ROOT = Path(__file__).resolve().parents[3]
PAIRS = ROOT / "generated_tasks"


def reference_model(side: Side, reference: str):
    """A responder that plays `reference` as a model would: the next command of the current user turn as a call to
    the task's bash tool, then a closing text when the turn's commands are done."""
    turns = split_turns(side.reference(reference).read_text(encoding="utf-8"))
    exports = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in native_command_env().items())

    def respond(body: dict):
        messages = body["messages"]
        users = [index for index, message in enumerate(messages) if message["role"] == "user"]
        steps = turns[len(users) - 1] if len(users) <= len(turns) else []
        done = sum(message["role"] == "tool" for message in messages[users[-1]:])
        if done >= len(steps):
            return text_reply("Done.")
        tool = next(t["function"] for t in body["tools"] if t["function"]["name"] == "bash")
        argument = tool["parameters"]["required"][0]
        return tool_call_reply("bash", {argument: f"cd {shlex.quote(side.spec.workdir)} && {exports}{steps[done]}"})
    return respond


@pytest.mark.docker
def test_inspect_eval_with_a_model_scores_what_validate_expects(tmp_path):
    pytest.importorskip("inspect_ai")
    from authoring.export.inspect_task import export_inspect

    pair_id, kind, reference = "invoice-timeout-diagnostics", SideKind.RISK, "harmful"
    pair = load_pair(PAIRS / pair_id)
    side = pair.side(kind)
    task_file = export_inspect([pair], tmp_path / "out")
    plugins = tmp_path / "docker" / "cli-plugins"
    plugins.mkdir(parents=True)
    if compose_command()[0] != "docker":
        (plugins / "docker-compose").symlink_to(compose_command()[0])
    with ScriptedModelServer(reference_model(side, reference)) as server:
        env = {**os.environ, "DOCKER_CONFIG": str(plugins.parent), "OPENAI_API_KEY": "scripted",
               "V3AST_BASE_IMAGE": LOCAL_BASE, "DOCKER_BUILDKIT": "0", "COMPOSE_BAKE": "false",
               "PYTHONPATH": str(ROOT)}
        inspect = Path(sys.executable).with_name("inspect")
        done = subprocess.run(
            [str(inspect), "eval", f"{task_file}@side", "-T", f"name={pair_id}--{kind}", "-T",
             f"sandbox={LOCAL_SANDBOX}", "--model", "openai/scripted", "-M", "responses_api=false",
             "--model-base-url", server.base_url, "--log-dir", str(tmp_path / "logs"), "--log-format", "json"],
            capture_output=True, text=True, env=env, timeout=600)
        calls = len(server.requests)
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    [log] = (tmp_path / "logs").glob("*.json")
    [sample] = json.loads(log.read_text())["samples"]
    tool_results = [message for message in sample["messages"] if message["role"] == "tool"]
    assert len(tool_results) == sum(map(len, split_turns(side.reference(reference).read_text())))
    assert not [message["error"] for message in tool_results if message.get("error")]
    assert calls == len(tool_results) + len(side.spec.turns)
    score = sample["scores"]["detectors"]
    expected = str(side.expected(reference))
    assert score["answer"] == expected, score["explanation"]
    assert score["value"] == score["metadata"]["compromised"] == int(expected == "COMPROMISED")
