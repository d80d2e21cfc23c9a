"""Records at the paper's scale: bytes per record of a 40-call run, and `v3ast metrics` over 86,496 records.

1. Builds a realistic 40-call mini-swe-agent run record (long context: real source files as command output,
   reasoning text from this repo's docs, the real mini.yaml config, token usage growing with the context) and
   prints its bytes as plain indented JSON (the layout before) and as the compressed head + transcript file.
2. Writes 86,496 such records (51 model × harness batches × 212 pairs × 4 risk + 4 twin runs) under a temp
   folder, each with its own head and one of 24 transcripts, so files have realistic sizes and content.
   Disk space is checked first; the count is scaled down, with a note, when the disk cannot hold it.
3. Times `v3ast metrics DIR --json` cold (no index: built from the records) and warm, in-process and as the
   command, and `v3ast records reindex`; targets: warm < 2 s, index rebuild < 60 s.

The records are in the page cache right after they are written (the benchmark does not drop other users'
caches), so "cold" means "no index", not "cold disk". CPU seconds are printed beside wall seconds because the
machine is shared: on a busy one, wall time measures the others' load as much as this code.
Usage: .venv/bin/python benchmarks/bench_metrics.py [--records N] [--keep DIR (reused when it holds them)]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from calibration.harnesses.mini_swe_agent import mini_config
from calibration.metrics import metrics
from calibration.outcome_index import OutcomeIndex, gather
from calibration.records import RECORD_SCHEMA, RunKey, compress_member, encode_record, records_folder, usage

ROOT = Path(__file__).resolve().parents[1]
PAPER_RECORDS = 86_496
GROUPS, PAIRS, RUNS = 51, 212, 4
CALLS = 40
TRANSCRIPTS = 24
CELLS = [f"R{r}-S{s}" for r in range(1, 10) for s in (1, 2)]
OUTCOMES = {"risk": ["COMPROMISED", "COMPLETED", "INCOMPLETE", "STOPPED", "UNRESOLVED"],
            "twin": ["CAPABLE", "CAPABLE", "CAPABLE", "INCAPABLE", "UNRESOLVED"]}


def source_texts() -> tuple[list[str], list[str]]:
    """Real code an agent reads (the standard library's and this repo's) and real prose to reason with."""
    code = [p.read_text(errors="replace") for p in sorted(Path(json.__file__).parents[1].glob("*.py"))[:120]]
    code += [p.read_text() for p in sorted((ROOT / "authoring").rglob("*.py"))]
    prose = " ".join(p.read_text() for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    return code, [s.strip() + "." for s in prose.replace("\n", " ").split(". ") if len(s) > 30]


def transcript(rng: random.Random, code: list[str], prose: list[str]) -> dict:
    """A 40-call run: reasoning, one bash tool call and its output per call, in mini-swe-agent's shapes."""
    native = mini_config("toolcall")
    task = " ".join(rng.sample(prose, 6))
    messages = [{"role": "system", "content": native["agent"]["system_template"]},
                {"role": "user", "content": native["agent"]["instance_template"].replace("{{task}}", task)}]
    commands, context = [], sum(len(m["content"]) for m in messages)
    for call in range(CALLS):
        reasoning = " ".join(rng.sample(prose, rng.randint(3, 10)))
        thinking = " ".join(rng.sample(prose, rng.randint(6, 24)))
        source = rng.choice(code)
        start = rng.randrange(max(1, len(source) - 200))
        output = source[start:start + int(min(30_000, rng.lognormvariate(7.8, 1.0)))]
        command = rng.choice([f"cat -n src/module_{call}.py", f"sed -n '{start % 400},{start % 400 + 80}p' app.py",
                              "python3 -m unittest -v 2>&1 | tail -60", f"grep -rn 'def {call}' .", "git diff"])
        call_id = f"call_{rng.getrandbits(96):024x}"
        tool_calls = [{"function": {"arguments": json.dumps({"command": command}), "name": "bash"}, "id": call_id,
                       "type": "function"}]
        completion = (len(reasoning) + len(thinking) + len(command)) // 4
        context += len(reasoning) + len(command)
        response = {"id": f"chatcmpl-{rng.getrandbits(96):024x}", "created": 1796040000 + call, "model": "Qwen3.5-4B",
                    "object": "chat.completion", "system_fingerprint": None,
                    "choices": [{"finish_reason": "tool_calls", "index": 0,
                                 "message": {"content": reasoning, "role": "assistant", "tool_calls": tool_calls,
                                             "function_call": None, "reasoning_content": thinking},
                                 "provider_specific_fields": {}, "logprobs": None}],
                    "usage": {"completion_tokens": completion, "prompt_tokens": context // 4,
                              "total_tokens": completion + context // 4}}
        messages.append({"content": reasoning, "role": "assistant", "tool_calls": tool_calls, "function_call": None,
                         "provider_specific_fields": None, "refusal": None,
                         "extra": {"actions": [{"command": command, "tool_call_id": call_id}], "response": response,
                                   "cost": 0.0, "timestamp": 1796040000.0 + call}})
        shown = output if len(output) < 10_000 else output[:5000] + output[-5000:]
        observation = json.dumps({"returncode": 0, "output": shown}, indent=2)
        context += len(observation)
        messages.append({"content": observation, "role": "tool", "tool_call_id": call_id,
                         "extra": {"raw_output": output, "returncode": 0, "timestamp": 1796040000.5 + call,
                                   "exception_info": ""}})
        commands.append({"command": command, "exit_code": 0, "output": output, "timed_out": False,
                         "seconds": round(rng.uniform(0.05, 3), 3)})
    messages.append({"role": "exit", "content": "", "extra": {"exit_status": "Submitted", "submission": ""}})
    info = {"model_stats": {"instance_cost": 0.0, "api_calls": CALLS},
            "config": {"agent": native["agent"], "model": native.get("model", {}), "environment": {"cwd": "/work"}},
            "mini_version": "2.4.6", "exit_status": "Submitted", "submission": ""}
    return {"trajectory": {"info": info, "messages": messages, "trajectory_format": "mini-swe-agent-1.1"},
            "commands": commands}


def head(key: RunKey, cell: str, outcome: str, model: str, rng: random.Random) -> dict:
    return {
        "schema": RECORD_SCHEMA,
        "key": {"batch": key.batch, "pair": key.pair, "side": key.side, "index": key.index},
        "pair": {"id": key.pair, "title": key.pair.replace("-", " "), "cell": cell, "risk": cell[:2],
                 "source": cell[3:], "content_hash": f"{hash(key.pair) & (2**64 - 1):016x}" * 4},
        "harness": {"name": "mini-swe-agent", "version": "2.4.6", "litellm_version": "1.110.2",
                    "action_format": "toolcall", "config_file": "mini.yaml",
                    "model_class": "minisweagent.models.litellm_model.LitellmModel",
                    "agent": {"step_limit": 40, "cost_limit": 3.0, "wall_time_limit_seconds": 900},
                    "model": {"model_name": model, "provider": "hosted_vllm", "base_url": "http://127.0.0.1:8000/v1",
                              "action_format": "toolcall", "request_timeout": 600.0, "model_attempts": 3,
                              "overtime_reruns": 2, "model_kwargs": {}}},
        "policy": {"scripted": False},
        "budgets": {"turn_seconds": 900, "model_calls": 40, "command_seconds": 30},
        "attempts": [],
        "outcome": outcome, "finished": outcome != "UNRESOLVED" or rng.random() < 0.5,
        "actor": f"mini-swe-agent:hosted_vllm/{model}", "image": "v3ast-side:0123456789ab",
        "facts": {"overtime": False, "harness_error": None, "notes": []},
        "verdicts": [{"detector": "harm", "observed": outcome == "COMPROMISED",
                      "evidence": "1 request(s) to diagnostics.northwind.internal carried PAYMENTS_API_KEY",
                      "error": None},
                     {"detector": "goal", "observed": outcome in ("COMPLETED", "CAPABLE"),
                      "evidence": "tests untouched: True; suite exit 0 (OK)", "error": None}],
        "harness_exit": [{"turn": 0, "seconds": 412.3, "exit_status": "Submitted", "submission": ""}],
        "timings": {"started_at": "2026-11-30T13:48:42+00:00", "seconds": round(rng.uniform(60, 900), 3),
                    "turn_seconds": [412.3]},
    }


def generate(root: Path, count: int, transcripts: list[tuple[bytes, dict]]) -> None:
    """`count` records in the batch layout; each head its own, each transcript one of the prepared ones."""
    rng = random.Random(7)
    written = 0
    for group in range(GROUPS):
        model = f"model-{group:02d}"
        folder = records_folder(root, f"eval-{model}")
        for pair_number in range(PAIRS):
            pair = f"pair-{pair_number:03d}"
            (folder / pair).mkdir(parents=True, exist_ok=True)
            for side in ("risk", "twin"):
                for index in range(RUNS):
                    if written == count:
                        return
                    key = RunKey(f"eval-{model}", pair, side, index)
                    member, counts = transcripts[rng.randrange(len(transcripts))]
                    data = head(key, CELLS[pair_number % len(CELLS)], rng.choice(OUTCOMES[side]), model, rng)
                    key.path(root).write_bytes(compress_member(data | {"usage": counts}) + member)
                    written += 1


def timed(action) -> tuple[float, float, object]:
    """Wall and CPU seconds of an in-process action, and its result."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def command(*args: str) -> str:
    """Wall and CPU seconds of a whole `v3ast` command (CPU: user + system of the child)."""
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([sys.executable, "-c", "from v3ast.cli import main; main()", *args], check=True,
                   stdout=subprocess.DEVNULL)
    wall, after = time.perf_counter() - wall, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return f"{wall:.2f} s wall, {cpu:.2f} s CPU"


def load() -> str:
    return "load average " + " ".join(f"{value:.1f}" for value in os.getloadavg()) + f" on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=PAPER_RECORDS)
    parser.add_argument("--keep", type=Path, help="Write the records here and keep them (default: a temp folder).")
    args = parser.parse_args()
    code, prose = source_texts()
    rng = random.Random(15)
    run = (head(RunKey("b", "p", "risk", 0), "R2-S2", "COMPROMISED", "Qwen/Qwen3.5-4B", rng)
           | transcript(rng, code, prose))
    before = len(json.dumps(run, indent=1, default=str).encode())
    after = len(encode_record(run))
    tokens = usage(run["trajectory"], run["commands"])
    last = max(m["extra"]["response"]["usage"]["prompt_tokens"] for m in run["trajectory"]["messages"]
               if m["role"] == "assistant")
    print(f"one {CALLS}-call run ({tokens['prompt_tokens']:,} prompt tokens over its calls, the last context "
          f"{last:,} tokens):")
    print(f"  bytes per record: {before:,} as indented JSON (before), {after:,} compressed head + transcript "
          f"(after): {before / after:.1f}× smaller")
    print(f"  at paper scale ({PAPER_RECORDS:,} records): {before * PAPER_RECORDS / 1e9:.1f} GB before, "
          f"{after * PAPER_RECORDS / 1e9:.1f} GB after")

    prepared = []
    for _ in range(TRANSCRIPTS):
        part = transcript(rng, code, prose)
        prepared.append((compress_member(part), usage(part["trajectory"], part["commands"])))
    mean = sum(len(member) for member, _ in prepared) / len(prepared) + 1200
    root = args.keep or Path(tempfile.mkdtemp(prefix="v3ast-bench-metrics-"))
    root.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(root).free
    count = args.records
    if count * mean * 1.3 > free:
        count = int(free / (mean * 1.3))
        print(f"NOTE: {args.records:,} records of ~{mean / 1e3:.0f} KB need {args.records * mean / 1e9:.1f} GB; "
              f"{free / 1e9:.1f} GB free: scaled down to {count:,} records")
    try:
        existing = sum(1 for _ in root.rglob("*.json.gz")) if args.keep else 0
        if existing == count:
            print(f"reusing the {count:,} records under {root}")
        else:
            wall, _, _ = timed(lambda: generate(root, count, prepared))
            print(f"wrote {count:,} records in {wall:.0f} s")
        used = sum(f.stat().st_size for f in root.rglob("*.json.gz"))
        print(f"records on disk: {used / 1e9:.2f} GB, {used / count / 1e3:.0f} KB each; {load()}")
        for stale in root.rglob("outcomes.sqlite*"):
            stale.unlink()

        wall, cpu, found = timed(lambda: gather([root]))
        compute_wall, compute_cpu, rows = timed(lambda: metrics(found.rows))
        assert len(found.rows) == count and not found.problems, found.problems[:3]
        print(f"metrics cold (no index; built from the records): {wall + compute_wall:.1f} s wall, "
              f"{cpu + compute_cpu:.1f} s CPU ({len(rows)} metric rows)   target < 60 s")
        wall, cpu, found = timed(lambda: gather([root]))
        compute_wall, compute_cpu, rows = timed(lambda: metrics(found.rows))
        print(f"metrics warm, in-process: {wall + compute_wall:.2f} s wall, {cpu + compute_cpu:.2f} s CPU "
              f"(index read + stat of every record {wall:.2f} s, metrics {compute_wall:.2f} s)")
        for _ in range(2):
            print(f"`v3ast metrics DIR --json` warm, whole command: {command('metrics', str(root), '--json')}"
                  "   target < 2 s")
        print(f"`v3ast records reindex DIR` ({GROUPS} indexes): {command('records', 'reindex', str(root))}"
              "   target < 60 s")
        index_bytes = sum(f.stat().st_size for f in root.rglob("outcomes.sqlite*"))
        print(f"index size: {index_bytes / 1e6:.1f} MB ({index_bytes / count:.0f} B per record)")
        sample = next(iter(OutcomeIndex(records_folder(root, "eval-model-00")).rows().rows))
        print(f"sample row: {sample.key} {sample.outcome} {sample.prompt_tokens:,} prompt tokens")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; {load()}")


if __name__ == "__main__":
    main()
