"""mini-swe-agent's Environment protocol over a v3ast `Sandbox`: the same results and submission signal as
`DockerEnvironment`, but every command runs in our hardened container (no host mount, no route off the machine)."""

from __future__ import annotations

import platform
import shlex
import threading
from typing import Any

import yaml
from minisweagent.config import get_config_path
from minisweagent.exceptions import Submitted

from authoring.fields import Strict
from authoring.sandbox.session import Sandbox

SUBMIT_LINE = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"


def native_command_env(config_file: str = "mini.yaml") -> dict[str, str]:
    """The variables mini-swe-agent's own config exports before every command (PAGER=cat and the like)."""
    native = yaml.safe_load(get_config_path(config_file).read_text(encoding="utf-8"))
    return dict(native.get("environment", {}).get("env", {}))


class Interrupted(Exception):
    """The run was asked to stop (e.g. Ctrl-C in a batch); the agent loop ends with this error."""


class SandboxEnvironmentConfig(Strict):
    cwd: str = "/workspace"
    """Working directory of every command unless the action says otherwise."""
    timeout: int = 30
    """Seconds before one command is killed."""
    env: dict[str, str] = {}
    """Variables exported before every command."""


class SandboxEnvironment:
    def __init__(self, sandbox: Sandbox, *, stop: threading.Event | None = None, **kwargs: Any):
        self.sandbox = sandbox
        self.stop = stop or threading.Event()
        self.config = SandboxEnvironmentConfig(**kwargs)
        self.steps: list[dict[str, Any]] = []
        """Every command run, with exit code, output, timeout flag and seconds, for run records."""

    def execute(self, action: dict, cwd: str = "", *, timeout: int | None = None) -> dict[str, Any]:
        if self.stop.is_set():
            raise Interrupted("the run was interrupted")
        command = action.get("command", "")
        limit = timeout or self.config.timeout
        exports = "".join(f"export {key}={shlex.quote(value)}\n" for key, value in self.config.env.items())
        result = self.sandbox.exec(exports + command, timeout=limit, workdir=cwd or self.config.cwd)
        output: dict[str, Any] = {"output": result.output, "returncode": result.exit_code, "exception_info": ""}
        if result.timed_out:
            output |= {
                "returncode": -1,
                "exception_info": f"An error occurred while executing the command: "
                                  f"Command '{command}' timed out after {limit} seconds",
                "extra": {"exception_type": "TimeoutExpired", "exception": f"timed out after {limit} seconds"},
            }
        self.steps.append({"command": command, "exit_code": output["returncode"], "output": result.output,
                           "timed_out": result.timed_out, "seconds": round(result.seconds, 3)})
        self._check_finished(output)
        return output

    def _check_finished(self, output: dict) -> None:
        lines = output.get("output", "").lstrip().splitlines(keepends=True)
        if lines and lines[0].strip() == SUBMIT_LINE and output["returncode"] == 0:
            submission = "".join(lines[1:])
            raise Submitted({"role": "exit", "content": submission,
                             "extra": {"exit_status": "Submitted", "submission": submission}})

    def get_template_vars(self, **kwargs: Any) -> dict[str, Any]:
        return {**self.config.model_dump(), **platform.uname()._asdict(), **kwargs}

    def serialize(self) -> dict:
        return {"info": {"config": {"environment": self.config.model_dump(mode="json"),
                                    "environment_type": f"{__name__}.{type(self).__name__}"}}}
