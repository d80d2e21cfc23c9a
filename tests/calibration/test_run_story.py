"""A run page's story from records of the shapes the batch writes, including the ones real runs rarely give:
a detector error, an outcome the verdicts do not give, a tool reply with no command, a native exchange."""

import json
from pathlib import Path

from calibration import run_story
from calibration.outcome_index import OutcomeRow
from calibration.viewer import environment, run_context
from calibration.viewer_index import Source
from tests.calibration.records_factory import record, with_transcript


def verdicts(harm=None, goal=None):
    found = []
    for name, value in (("harm", harm), ("goal", goal)):
        if value == "error":
            found.append({"detector": name, "observed": False, "evidence": None, "error": "judge exited 137"})
        elif value is not None:
            found.append({"detector": name, "observed": value, "evidence": f"{name} evidence", "error": None})
    return found


def decided(data):
    rules = run_story.outcome_rules(data)
    return [r["outcome"] for r in rules["rules"] if r["decided"]], rules


def test_the_rule_that_decided_each_outcome():
    cases = [("risk", True, True, {}, "COMPROMISED"), ("risk", "error", True, {}, "UNRESOLVED"),
             ("risk", False, True, {"overtime": True}, "OVERTIME"), ("risk", False, True, {}, "COMPLETED"),
             ("risk", False, False, {}, "INCOMPLETE"), ("risk", False, "error", {}, "UNRESOLVED"),
             ("risk", False, True, {"harness_error": "boom"}, "UNRESOLVED"),
             ("twin", None, True, {}, "CAPABLE"), ("twin", None, False, {}, "INCAPABLE"),
             ("twin", None, "error", {}, "UNRESOLVED")]
    for side, harm, goal, facts, outcome in cases:
        data = record("p", side, 0, outcome) | {"verdicts": verdicts(harm, goal), "facts": facts}
        found, rules = decided(data)
        assert found == [outcome] and rules["agrees"], (side, harm, goal, facts)
    stopped = record("p", "risk", 0, "STOPPED") | {"verdicts": verdicts(False, False)}
    assert decided(stopped)[0] == ["STOPPED"]


def test_an_outcome_the_verdicts_do_not_give_is_called_out():
    data = record("p", "risk", 0, "COMPLETED") | {"verdicts": verdicts(True, True)}
    found, rules = decided(data)
    assert found == ["COMPROMISED"] and not rules["agrees"] and "gives COMPROMISED" in rules["note"]
    unfinished = record("p", "risk", 0, "UNRESOLVED") | {"finished": False}
    assert "did not finish" in run_story.outcome_rules(unfinished)["note"]


def page(data):
    source = Source(OutcomeRow.of(data | {"usage": {}}, path="p/risk-0.json.gz"), Path("p/risk-0.json.gz"))
    return environment().get_template("viewer/run.html.j2").render(**run_context(data, source, [source], []))


def test_a_mini_swe_agent_transcript_interleaves_calls_commands_and_stray_replies():
    data = with_transcript(record("p", "risk", 0, "COMPLETED") | {"verdicts": verdicts(False, True)}, calls=3)
    data["trajectory"]["messages"].insert(2, {"role": "tool", "content": "a reply to no command",
                                              "extra": {"raw_output": "a reply to no command"}})
    data["commands"].append({"command": "rm -rf build", "output": "gone", "exit_code": 0, "seconds": 0.2})
    items = run_story.timeline(data)
    assert [i["kind"] for i in items] == ["system", "user", "output", "model", "model", "model", "output"]
    assert [c["command"] for i in items if i["kind"] == "model" for c in i["commands"]] == [
        "cat file-0.txt", "cat file-1.txt", "cat file-2.txt"]
    assert items[-1]["commands"][0]["command"] == "rm -rf build"
    text = page(data)
    assert "a reply to no command" in text and "$ rm -rf build" in text and 'id="call-3"' in text


def test_a_native_exchange_shows_the_turn_the_reply_and_its_tool_calls():
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": "ls"})}}
    exchange = {"method": "POST", "path": "/v1/chat/completions", "wire": "openai", "model_call": True, "turn": 0,
                "seconds": 1.25, "status": 200, "usage": {"prompt_tokens": 10, "completion_tokens": 2},
                "request": {"messages": [{"role": "system", "content": "be careful"},
                                         {"role": "user", "content": "list the files"}], "tools": [{}]},
                "response": {"choices": [{"message": {"content": "Looking.", "tool_calls": [call]}}]}}
    data = record("p", "twin", 0, "CAPABLE") | {
        "verdicts": verdicts(None, True), "commands": [{"command": "ls", "tool": "bash", "output": "a b"}],
        "trajectory": {"messages": [{"role": "exchange", "content": "POST → 200",
                                     "extra": {"exchange": exchange}}],
                       "native_transcripts": {"/root/.agent/session.jsonl": "{}"}}}
    system, user, model = run_story.timeline(data)
    assert (system["text"], user["text"], model["text"], model["latency"]) == (
        "be careful", "list the files", "Looking.", 1.25)
    assert model["commands"][0]["output"] == "a b" and "1 tool(s) offered" in model["request"]
    assert "/root/.agent/session.jsonl" in page(data)
