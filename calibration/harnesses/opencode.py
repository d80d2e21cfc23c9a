"""OpenCode (`opencode-ai`): a native ELF (Bun-compiled), no Node. `opencode run` per turn, later turns continue the
session with `--session <id>`; every permission allowed (`--auto` and a config that allows everything: the task
container is the sandbox). The model provider is the run's proxy as a custom OpenAI-compatible provider (Chat
Completions), configured by `OPENCODE_CONFIG_CONTENT`; its network start-up work (models.dev fetch, auto-update,
default plugins, LSP downloads, sharing) is off."""

from __future__ import annotations

import json
from typing import Any

from calibration.harnesses.base import RESULT_CHARS, Gateway, TurnExit, json_events, raw_output_unless
from calibration.harnesses.install import NpmPackage, Placement

VERSION = "1.18.33"
PACKAGE = NpmPackage("opencode-ai", VERSION)
PLATFORM = "opencode-linux-x64"
BINARY = "/opt/opencode/bin/opencode"
PROVIDER = "gateway"
KEY_VARIABLE = "OPENCODE_GATEWAY_KEY"
DATA_DIR = "/root/.local/share/opencode"
FLAGS = ["--format", "json", "--auto"]
QUIET = {"OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1",
         "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1", "OPENCODE_DISABLE_SHARE": "1"}
PERMISSIVE = {"permission": "allow", "autoupdate": False, "share": "disabled", "snapshot": False}


class OpenCode:
    name = "opencode"
    version = VERSION
    wire = "openai"
    packages = (PACKAGE,)
    placements = (Placement(PACKAGE, f"node_modules/{PLATFORM}/bin/opencode", BINARY),)
    transcript_dirs = (f"{DATA_DIR}/opencode.db", f"{DATA_DIR}/opencode.db-wal", f"{DATA_DIR}/log")
    """Sessions live in its SQLite database (copied out as JSON) and its own log."""

    def environment(self, gateway: Gateway, command_seconds: int) -> dict[str, str]:
        return QUIET | {KEY_VARIABLE: gateway.key, "OPENCODE_CONFIG_CONTENT": json.dumps(config(gateway)),
                        "OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS": str(command_seconds * 1000)}

    def turn_command(self, prompt: str, gateway: Gateway, session: str | None, first: bool) -> list[str]:
        resume = [] if first or not session else ["--session", session]
        return [BINARY, "run", *FLAGS, "--model", f"{PROVIDER}/{gateway.model}", *resume, prompt]

    def new_session(self) -> None:
        return None

    def read_exit(self, exit_code: int, output: str) -> TurnExit:
        events = json_events(output)
        session = next((e.get("sessionID") for e in events if e.get("sessionID")), None)
        errors = [e.get("error") for e in events if e.get("type") == "error"]
        texts = [(e.get("part") or {}).get("text", "") for e in events if e.get("type") == "text"]
        steps = [(e.get("part") or {}) for e in events if e.get("type") == "step_finish"]
        tokens = {"input": sum((s.get("tokens") or {}).get("input") or 0 for s in steps),
                  "output": sum((s.get("tokens") or {}).get("output") or 0 for s in steps)}
        status = "completed" if steps and not errors and exit_code == 0 else "error"
        return TurnExit(status, session, (texts or [""])[-1][-RESULT_CHARS:],
                        {"exit_code": exit_code, "steps": len(steps), "finish": (steps or [{}])[-1].get("reason"),
                         "tokens": tokens, "errors": errors[-3:], **raw_output_unless(events, output)})

    def flags(self) -> dict[str, Any]:
        return {"argv": ["run", *FLAGS, "--model", f"{PROVIDER}/M", "[--session S]"], "env": QUIET,
                "config": {**PERMISSIVE, "provider": {PROVIDER: "@ai-sdk/openai-compatible → the model proxy"}},
                "command_timeout_env": "OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS"}


def config(gateway: Gateway) -> dict[str, Any]:
    provider = {"npm": "@ai-sdk/openai-compatible", "name": PROVIDER,
                "options": {"baseURL": f"{gateway.origin}/v1", "apiKey": f"{{env:{KEY_VARIABLE}}}"},
                "models": {gateway.model: {"name": gateway.model}}}
    return {**PERMISSIVE, "provider": {PROVIDER: provider}, "model": f"{PROVIDER}/{gateway.model}"}
