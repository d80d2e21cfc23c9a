"""mini-swe-agent's DefaultAgent, continued across repair rounds: feedback is a new user turn of the same
conversation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from minisweagent.agents.default import DefaultAgent
from minisweagent.config import get_config_path
from minisweagent.exceptions import FormatError, InterruptAgentFlow

SUBMITTED_NOTE = "Submitted. The toolkit is now checking the pair in fresh sandboxes."
AGENT_TEMPLATES = "agent.{version}.yaml"


def agent_templates(templates: Path, version: str) -> dict[str, str]:
    """The Stage II system and instance templates (templates/stage2/agent.<version>.yaml)."""
    path = templates / "stage2" / AGENT_TEMPLATES.format(version=version)
    if not path.is_file():
        raise FileNotFoundError(f"no agent templates at {path}")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def native_model_settings() -> dict[str, Any]:
    """mini-swe-agent's own observation and format-error templates and model kwargs (its mini.yaml)."""
    return yaml.safe_load(get_config_path("mini.yaml").read_text(encoding="utf-8"))["model"]


class RepairingAgent(DefaultAgent):
    """`run(task)` is the first round; `follow_up(feedback)` answers a pending submission and runs the next one."""

    def __init__(self, *args: Any, round_steps: int, **kwargs: Any):
        super().__init__(*args, step_limit=round_steps, **kwargs)
        self.round_steps = round_steps

    def follow_up(self, feedback: str, **marks: Any) -> dict:
        self.config.step_limit = self.n_calls + self.round_steps
        exit_message = self.messages.pop() if self.messages and self.messages[-1].get("role") == "exit" else {}
        pending = self.messages[-1] if self.messages and self.messages[-1].get("role") == "assistant" else None
        if pending is not None and pending.get("extra", {}).get("actions"):
            note = {"output": SUBMITTED_NOTE, "returncode": 0, "exception_info": ""}
            self.add_messages(*self.model.format_observation_messages(pending, [note], self.get_template_vars()))
        status = exit_message.get("extra", {}).get("exit_status", "")
        self.add_messages(self.model.format_message(role="user", content=feedback,
                                                    extra={"previous_exit_status": status, **marks}))
        return self._loop()

    def run(self, task: str = "", **kwargs: Any) -> dict:
        self.extra_template_vars |= {"task": task, **kwargs}
        self.messages = []
        self.add_messages(
            self.model.format_message(role="system", content=self._render_template(self.config.system_template)),
            self.model.format_message(role="user", content=self._render_template(self.config.instance_template)),
        )
        return self._loop()

    def _loop(self) -> dict:
        """DefaultAgent.run's loop (mini-swe-agent 2.4), without resetting the conversation."""
        while True:
            try:
                self.step()
                self.n_consecutive_format_errors = 0
            except FormatError as error:
                self.cost += error.messages[0].get("extra", {}).get("cost", 0.0)
                self.n_consecutive_format_errors += 1
                self.add_messages(*error.messages)
                if 0 < self.config.max_consecutive_format_errors <= self.n_consecutive_format_errors:
                    self.add_messages({"role": "exit", "content": "RepeatedFormatError",
                                       "extra": {"exit_status": "RepeatedFormatError", "submission": ""}})
            except InterruptAgentFlow as error:
                self.add_messages(*error.messages)
            except Exception as error:
                self.handle_uncaught_exception(error)
                raise
            finally:
                self.save(self.config.output_path)
            if self.messages[-1].get("role") == "exit":
                return self.messages[-1].get("extra", {})
