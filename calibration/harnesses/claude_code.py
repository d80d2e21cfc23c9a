"""Claude Code (`@anthropic-ai/claude-code`): a native glibc binary, no Node. `claude -p` per turn, the first with a
fixed `--session-id`, later ones `--resume` it; permission checks skipped (`--dangerously-skip-permissions`, which
as root needs IS_SANDBOX=1): the task container is the sandbox."""

from __future__ import annotations

import uuid
from typing import Any

from calibration.harnesses.base import OUTPUT_CHARS, RESULT_CHARS, Gateway, TurnExit, json_events
from calibration.harnesses.install import NpmPackage, Placement

VERSION = "2.1.328"
PACKAGE = NpmPackage("@anthropic-ai/claude-code", VERSION)
PLATFORM = NpmPackage("@anthropic-ai/claude-code-linux-x64", VERSION)
BINARY = "/opt/claude-code/bin/claude"
FLAGS = ["--dangerously-skip-permissions", "--output-format", "json"]
QUIET = {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
         "DISABLE_ERROR_REPORTING": "1", "IS_SANDBOX": "1"}


class ClaudeCode:
    name = "claude-code"
    version = VERSION
    wire = "anthropic"
    packages = (PACKAGE,)
    placements = (Placement(PACKAGE, f"node_modules/{PLATFORM.name}/claude", BINARY),)
    transcript_dirs = ("/root/.claude/projects",)

    def environment(self, gateway: Gateway, command_seconds: int) -> dict[str, str]:
        limit = str(command_seconds * 1000)
        return QUIET | {"ANTHROPIC_BASE_URL": gateway.origin, "ANTHROPIC_API_KEY": gateway.key,
                        "BASH_DEFAULT_TIMEOUT_MS": limit, "BASH_MAX_TIMEOUT_MS": limit}

    def turn_command(self, prompt: str, gateway: Gateway, session: str | None, first: bool) -> list[str]:
        resume = ["--session-id", session or str(uuid.uuid4())] if first else ["--resume", session or ""]
        return [BINARY, "-p", prompt, *FLAGS, "--model", gateway.model, *resume]

    def new_session(self) -> str:
        return str(uuid.uuid4())

    def read_exit(self, exit_code: int, output: str) -> TurnExit:
        events = json_events(output)
        if not events:
            return TurnExit("error", detail={"exit_code": exit_code, "output": output[-OUTPUT_CHARS:]})
        result = events[-1]
        status = "error" if result.get("is_error") or exit_code else "completed"
        keep = ("subtype", "num_turns", "terminal_reason", "api_error_status", "duration_ms", "usage", "is_error")
        return TurnExit(status, result.get("session_id"), str(result.get("result", ""))[-RESULT_CHARS:],
                        {"exit_code": exit_code} | {k: result.get(k) for k in keep})

    def flags(self) -> dict[str, Any]:
        return {"argv": FLAGS + ["--model", "M", "--session-id|--resume", "S"], "env": QUIET,
                "command_timeout_env": ["BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS"]}
