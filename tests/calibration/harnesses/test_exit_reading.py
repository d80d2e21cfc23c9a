import json

from calibration.harnesses.base import OUTPUT_CHARS, json_events
from calibration.harnesses.claude_code import ClaudeCode
from calibration.harnesses.codex import Codex
from calibration.harnesses.opencode import OpenCode
from calibration.harnesses.pi import Pi


def _lines(*events) -> str:
    return "\n".join(json.dumps(e) for e in events)


def test_json_events_keeps_the_objects_in_order_and_passes_over_the_rest():
    output = "starting…\n" + _lines({"a": 1}) + "\n[1, 2]\n{broken\n" + _lines({"b": 2}) + "\n"
    assert json_events(output) == [{"a": 1}, {"b": 2}]


def test_each_harness_reads_a_completed_turn_from_its_events():
    codex = Codex().read_exit(0, _lines({"type": "thread.started", "thread_id": "t1"},
                                        {"type": "item.completed", "item": {"type": "agent_message", "text": "done"}},
                                        {"type": "turn.completed", "usage": {"input_tokens": 3}}))
    pi = Pi().read_exit(0, _lines({"type": "session", "id": "s1"}, {"type": "agent_end", "messages": [
        {"role": "assistant", "stopReason": "stop", "content": [{"type": "text", "text": "done"}]}]}))
    opencode = OpenCode().read_exit(0, _lines({"type": "text", "sessionID": "o1", "part": {"text": "done"}},
                                              {"type": "step_finish", "part": {"reason": "stop", "tokens": {}}}))
    claude = ClaudeCode().read_exit(0, "noise\n" + _lines({"session_id": "c1", "result": "done", "is_error": False}))
    assert [(e.status, e.session, e.result) for e in (codex, pi, opencode, claude)] == [
        ("completed", "t1", "done"), ("completed", "s1", "done"), ("completed", "o1", "done"),
        ("completed", "c1", "done")]
    assert all("output" not in e.detail for e in (codex, pi, opencode, claude))


def test_output_without_events_is_an_error_that_keeps_the_output_tail():
    output = "x" * (OUTPUT_CHARS + 10)
    for harness in (Codex(), Pi(), OpenCode(), ClaudeCode()):
        turn = harness.read_exit(1, output)
        assert turn.status == "error" and turn.detail["output"] == "x" * OUTPUT_CHARS, harness.name
