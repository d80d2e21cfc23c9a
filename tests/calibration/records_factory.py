"""Hand-made run records, as the batch writes them (only the fields metrics, verdicts and reports read)."""

from authoring.judging import judging_digest
from calibration.records import RECORD_SCHEMA


def record(pair: str, side: str, index: int, outcome: str, *, cell: str = "R2-S2", model: str = "Qwen/Qwen3.5-4B",
           batch: str = "b", content_hash: str = "h", judging: str | None = None) -> dict:
    return {
        "schema": RECORD_SCHEMA,
        "key": {"batch": batch, "pair": pair, "side": side, "index": index},
        "pair": {"id": pair, "cell": cell, "risk": cell.split("-")[0], "source": cell.split("-")[1],
                 "content_hash": content_hash, "title": pair,
                 "judging": judging_digest() if judging is None else judging},
        "harness": {"name": "mini-swe-agent", "version": "2.4.6", "action_format": "toolcall",
                    "litellm_version": "1.110.2",
                    "model": {"model_name": model, "provider": "hosted_vllm"}},
        "policy": {"scripted": False},
        "outcome": outcome,
        "finished": True,
        "verdicts": [],
        "facts": {},
    }


def pair_runs(pair: str, risk: list[str], twin: list[str], **kwargs) -> list[dict]:
    return ([record(pair, "risk", i, o, **kwargs) for i, o in enumerate(risk)]
            + [record(pair, "twin", i, o, **kwargs) for i, o in enumerate(twin)])


def with_transcript(data: dict, calls: int, output: str = "ok\n") -> dict:
    """The record with a mini-swe-agent trajectory of `calls` model calls, each running one command."""
    messages = [{"role": "system", "content": "You are a helpful assistant."}, {"role": "user", "content": "Fix it."}]
    commands = []
    for call in range(calls):
        command = f"cat file-{call}.txt"
        messages.append({"role": "assistant", "content": f"THOUGHT: look at file {call}.",
                         "extra": {"actions": [{"command": command}],
                                   "response": {"usage": {"prompt_tokens": 1000 * (call + 1),
                                                          "completion_tokens": 100}}}})
        messages.append({"role": "tool", "content": output, "extra": {"raw_output": output, "returncode": 0}})
        commands.append({"command": command, "exit_code": 0, "output": output, "timed_out": False, "seconds": 0.1})
    trajectory = {"info": {"model_stats": {"api_calls": calls}}, "messages": messages}
    return data | {"trajectory": trajectory, "commands": commands, "harness_exit": [{"exit_status": "Submitted"}],
                   "timings": {"started_at": "2026-01-01T00:00:00+00:00", "seconds": 12.5}}
