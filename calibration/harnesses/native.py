"""An `Actor` for a native harness in the task container: its turns delivered by `docker exec` as its own CLI, its
model calls through the run's proxy, its own transcript files copied out into the run record."""

from __future__ import annotations

import io
import json
import os
import secrets
import signal
import sqlite3
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from docker.errors import NotFound

from authoring.errors import BadInput
from authoring.outcomes import RunFacts
from authoring.pairs.format import Side
from authoring.pairs.runner import ActReport
from authoring.sandbox.containers import ended_by_timeout
from authoring.sandbox.session import Sandbox
from calibration.harnesses.base import Gateway, HarnessConfig, NativeHarness
from calibration.proxy.api_formats import tool_calls, tool_outputs
from calibration.proxy.relay import host_address, start_relay
from calibration.proxy.server import ModelProxy, Upstream

KILL_GRACE_SECONDS = 5
TRANSCRIPT_LIMIT_BYTES = 8_000_000
OUTPUT_KEPT = 4000


class NativeHarnessActor:
    """Runs `harness` on the side's turns against `config`'s endpoint (through a per-run proxy)."""

    def __init__(self, harness: NativeHarness, config: HarnessConfig, stop: threading.Event | None = None,
                 label: str | None = None):
        if not config.base_url:
            raise BadInput("no model endpoint configured (set --base-url or V3AST_MODEL_BASE_URL)")
        self.harness, self.config, self.stop = harness, config, stop or threading.Event()
        self.name = label or f"{harness.name}:{config.model}"

    def act(self, sandbox: Sandbox, side: Side) -> ActReport:
        budgets = side.spec.budgets
        gateway = Gateway(key=f"sk-run-{sandbox.run_id}-{secrets.token_hex(12)}", model=self.config.model)
        upstream = Upstream(self.config.base_url, self.config.key(),
                            self.config.request_timeout, self.config.attempts)
        env = self.harness.environment(gateway, budgets.command_seconds)
        turns: list[dict[str, Any]] = []
        overtime, harness_error, notes = False, None, []
        with ModelProxy(upstream, key=gateway.key, model_calls=budgets.model_calls,
                        bind=host_address(sandbox.client)) as proxy:
            start_relay(sandbox, proxy.port)
            write_files(sandbox, getattr(self.harness, "config_files", lambda gateway: {})(gateway))
            session = self.harness.new_session()
            for index, prompt in enumerate(side.spec.turns):
                proxy.begin_turn(index, budgets.turn_seconds)
                argv = self.harness.turn_command(prompt, gateway, session, first=index == 0)
                ran = run_turn(sandbox, argv, env, side.spec.workdir, budgets.turn_seconds, proxy.halt, self.stop)
                ended = self.harness.read_exit(ran["exit_code"], ran["stdout"])
                session = ended.session or session
                turn = {"turn": index, "seconds": ran["seconds"], "exit_status": ended.status,
                        "session": session, "submission": ended.result, "exit": ended.detail,
                        "stderr": ran["stderr"][-OUTPUT_KEPT:]}
                turns.append(turn)
                if self.stop.is_set():
                    from authoring.sandbox.agent_environment import Interrupted
                    raise Interrupted("the run was interrupted")
                if proxy.fault:
                    turn["exit_status"] = "ModelEndpointError"
                    harness_error = f"model endpoint: {proxy.fault}"
                    break
                if proxy.limit and "budget of" in proxy.limit:
                    turn["exit_status"] = "LimitsExceeded"
                    notes.append(proxy.limit)
                    break
                if ran["timed_out"] or proxy.limit or ran["seconds"] > budgets.turn_seconds:
                    turn["exit_status"] = "TimeExceeded"
                    overtime = True
                    break
                if ended.status != "completed":
                    harness_error = (f"{self.harness.name} ended turn {index + 1} with an error (exit code "
                                           f"{ran['exit_code']}): {json.dumps(ended.detail)[:400]}")
                    break
        transcripts = copy_transcripts(sandbox, self.harness.transcript_dirs)
        exchanges = proxy.exchanges
        trajectory = {"info": {"model_stats": {"api_calls": sum(1 for e in exchanges if e["model_call"]
                                                                  and not e.get("refused"))}},
                      "messages": [exchange_message(e) for e in exchanges], "native_transcripts": transcripts}
        details = {"harness": self.describe(budgets), "turns": turns, "trajectory": trajectory}
        return ActReport(facts=RunFacts(overtime, harness_error, notes), steps=commands_of(exchanges), details=details)

    def describe(self, budgets) -> dict[str, Any]:
        # action_format and litellm_version: the report templates name them for every harness
        return {"name": self.harness.name, "version": self.harness.version, "wire": self.harness.wire,
                "action_format": "native tool-call", "litellm_version": "none (native client, model proxy)",
                "flags": self.harness.flags(), "model": self.config.public(),
                "proxy": {"model_calls": budgets.model_calls, "turn_seconds": budgets.turn_seconds,
                          "request_timeout": self.config.request_timeout, "attempts": self.config.attempts}}


def run_turn(sandbox: Sandbox, argv: list[str], env: dict[str, str], workdir: str, seconds: float,
             halt: threading.Event, stop: threading.Event) -> dict[str, Any]:
    """One harness invocation under `timeout`; ended early (its process group signalled) when the proxy halts
    the run or the batch is stopped."""
    api = sandbox.client.api
    command = ["timeout", "-k", str(KILL_GRACE_SECONDS), f"{seconds:g}s", *argv]
    exec_id = api.exec_create(sandbox.agent.id, command, environment=env, workdir=workdir)["Id"]
    out: list[bytes] = []
    err: list[bytes] = []

    def collect() -> None:
        for stdout, stderr in api.exec_start(exec_id, stream=True, demux=True):
            out.append(stdout or b"")
            err.append(stderr or b"")

    started = time.monotonic()
    reader = threading.Thread(target=collect, name="v3ast-harness-turn", daemon=True)
    reader.start()
    ended_early = False
    while reader.is_alive() and time.monotonic() - started < seconds + 2 * KILL_GRACE_SECONDS:
        reader.join(0.2)
        if (halt.is_set() or stop.is_set()) and not ended_early:
            ended_early = end_exec(sandbox, exec_id)
    elapsed = time.monotonic() - started
    exit_code = api.exec_inspect(exec_id).get("ExitCode")
    timed_out = reader.is_alive() or (ended_by_timeout(exit_code, elapsed, seconds) and not ended_early)
    return {"exit_code": -1 if exit_code is None else exit_code, "timed_out": timed_out,
            "seconds": round(elapsed, 3), "stdout": b"".join(out).decode("utf-8", "replace"),
            "stderr": b"".join(err).decode("utf-8", "replace")}


def end_exec(sandbox: Sandbox, exec_id: str) -> bool:
    """SIGTERM to the exec's `timeout`, which passes it to the harness's process group."""
    pid = sandbox.client.api.exec_inspect(exec_id).get("Pid")
    if pid:
        try:
            os.kill(pid, signal.SIGTERM)
            return True
        except (ProcessLookupError, PermissionError):
            pass
    return False


def write_files(sandbox: Sandbox, files: dict[str, str]) -> None:
    """The harness's own configuration files (absolute path → text), written before its first turn."""
    if not files:
        return
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for path, text in files.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(path.lstrip("/"))
            info.size, info.mode = len(data), 0o600
            archive.addfile(info, io.BytesIO(data))
    sandbox.agent.put_archive("/", buffer.getvalue())


def copy_transcripts(sandbox: Sandbox, folders: tuple[str, ...]) -> dict[str, str]:
    """The harness's own files under `folders` (its session transcripts), path → text; an SQLite database (with
    its write-ahead log) becomes the JSON of its tables."""
    found: dict[str, bytes] = {}
    for folder in folders:
        try:
            stream, _ = sandbox.agent.get_archive(folder)
        except NotFound:
            continue
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
            for member in archive:
                if member.isfile() and member.size <= TRANSCRIPT_LIMIT_BYTES:
                    found[f"{folder.rsplit('/', 1)[0]}/{member.name}"] = archive.extractfile(member).read()
    texts: dict[str, str] = {}
    for name, data in found.items():
        if data.startswith(SQLITE_HEADER):
            texts[name] = sqlite_as_json(data, found.get(f"{name}-wal"))
        elif not (name.endswith(("-wal", "-shm")) and name.rsplit("-", 1)[0] in found):
            texts[name] = data.decode("utf-8", "replace")
    return texts


SQLITE_HEADER = b"SQLite format 3\x00"


def sqlite_as_json(database: bytes, wal: bytes | None) -> str:
    with tempfile.TemporaryDirectory(prefix="v3ast-transcript-") as folder:
        path = Path(folder) / "copy.db"
        path.write_bytes(database)
        if wal:
            Path(f"{path}-wal").write_bytes(wal)
        connection = sqlite3.connect(path)
        try:
            connection.row_factory = sqlite3.Row
            tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            dump = {table: [dict(row) for row in connection.execute(f'SELECT * FROM "{table}"')] for table in tables}
        except sqlite3.DatabaseError as error:
            dump = {"error": f"unreadable SQLite database: {error}"}
        finally:
            connection.close()
    return json.dumps(dump, default=lambda value: value.hex() if isinstance(value, bytes) else str(value))


def exchange_message(exchange: dict[str, Any]) -> dict[str, Any]:
    """One proxy exchange as a transcript entry (`usage` in records reads `extra.response.usage`)."""
    calls = tool_calls(exchange["wire"], exchange.get("response") or {}) if exchange.get("response") else []
    summary = (f"{exchange['method']} {exchange['path']} → {exchange.get('status')} in {exchange.get('seconds')} s"
               + (f"; {len(calls)} tool call(s): {', '.join(str(c['name']) for c in calls)}" if calls else "")
               + (f"; FAULT {exchange['fault']}" if exchange.get("fault") else ""))
    return {"role": "exchange", "content": summary,
            "extra": {"response": {"usage": exchange.get("usage") or {}}, "exchange": exchange}}


def commands_of(exchanges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool calls the model made, with the output the harness sent back for each."""
    steps: list[dict[str, Any]] = []
    outputs: dict[str, str] = {}
    for exchange in exchanges:
        outputs |= tool_outputs(exchange["wire"], exchange.get("request") or {})
    for exchange in exchanges:
        for call in tool_calls(exchange["wire"], exchange.get("response") or {}) if exchange.get("response") else []:
            arguments = call["arguments"] if isinstance(call["arguments"], dict) else {"input": call["arguments"]}
            command = arguments.get("command") or arguments.get("cmd") or json.dumps(arguments)
            steps.append({"command": " ".join(command) if isinstance(command, list) else str(command),
                          "tool": call["name"], "turn": exchange["turn"],
                          "output": outputs.get(call["id"], "")[-OUTPUT_KEPT:], "exit_code": None})
    return steps
