"""The mini-swe-agent harness adapter: the package's own agent loop on the host, its prompts and models, commands
executing in the task container (it needs no harness layer: its runs use the side's image as it is).

Failures are never safe: an endpoint that errors, times out or answers with something LiteLLM cannot parse
(after `attempts` tries) is a harness error, so the run is UNRESOLVED. A model that keeps breaking the
action format ends the run the native way (RepeatedFormatError) and the state it left is judged as usual.
"""

from __future__ import annotations

import threading
import time
import traceback
from importlib.metadata import version
from typing import Any

import yaml
from minisweagent import __version__ as MINI_VERSION
from minisweagent.agents.default import DefaultAgent
from minisweagent.config import get_config_path

from authoring.agent_model import endpoint_model
from authoring.errors import BadInput
from authoring.outcomes import RunFacts
from authoring.pairs.format import Side
from authoring.pairs.runner import ActReport
from authoring.sandbox.agent_environment import Interrupted, SandboxEnvironment
from authoring.sandbox.session import Sandbox
from calibration.harnesses.base import HarnessConfig

HARNESS_NAME = "mini-swe-agent"
NAME, VERSION = HARNESS_NAME, MINI_VERSION
ACTION_FORMATS = {"toolcall": ("mini.yaml", "minisweagent.models.litellm_model.LitellmModel"),
                  "text": ("mini_textbased.yaml", "minisweagent.models.litellm_textbased_model.LitellmTextbasedModel")}


def mini_config(action_format: str) -> dict[str, Any]:
    """The package's own config file for the action format (prompts, observation and format-error templates)."""
    if action_format not in ACTION_FORMATS:
        raise BadInput(f"unknown action format {action_format!r} (available: {', '.join(ACTION_FORMATS)})")
    return yaml.safe_load(get_config_path(ACTION_FORMATS[action_format][0]).read_text(encoding="utf-8"))


def build_model(config: HarnessConfig, native: dict[str, Any]):
    if not config.base_url:
        raise BadInput("no model endpoint configured (set --base-url or V3AST_MODEL_BASE_URL)")
    return endpoint_model(config, native.get("model", {}), text_actions=config.action_format == "text")


class TurnByTurnAgent(DefaultAgent):
    """The native DefaultAgent; a later user turn continues the same conversation with a fresh turn clock."""

    _history: list[dict] = []

    def run(self, task: str = "", **kwargs) -> dict:
        self._history = [m for m in self.messages if m.get("role") != "exit"]
        self._start_time = time.time()
        return super().run(task, **kwargs)

    def add_messages(self, *messages: dict) -> list[dict]:
        if self._history and not self.messages:  # the native run() has just reset the conversation
            self.messages, self._history = self._history, []
            messages = (self.model.format_message(role="user", content=self.extra_template_vars["task"]),)
        return super().add_messages(*messages)


def without_key(trajectory: dict[str, Any]) -> dict[str, Any]:
    """The native trajectory with the endpoint key taken out of its model config."""
    model_kwargs = trajectory.get("info", {}).get("config", {}).get("model", {}).get("model_kwargs", {})
    if "api_key" in model_kwargs:
        model_kwargs["api_key"] = "[redacted]"
    return trajectory


class MiniSweAgentActor:
    """An `Actor` for `run_side`: the real mini-swe-agent on the side's turns, within the side's budgets."""

    def __init__(self, config: HarnessConfig, stop: threading.Event | None = None, label: str | None = None):
        self.config, self.stop = config, stop or threading.Event()
        self.name = label or f"{HARNESS_NAME}:{config.litellm_name}"

    def act(self, sandbox: Sandbox, side: Side) -> ActReport:
        native, budgets = mini_config(self.config.action_format), side.spec.budgets
        environment = SandboxEnvironment(sandbox, cwd=side.spec.workdir, timeout=budgets.command_seconds,
                                         env=native.get("environment", {}).get("env", {}), stop=self.stop)
        agent_settings = {k: v for k, v in native["agent"].items() if k != "mode"}
        agent_settings |= {"step_limit": budgets.model_calls, "wall_time_limit_seconds": budgets.turn_seconds}
        turns: list[dict[str, Any]] = []
        harness_error, overtime, agent = None, False, None
        try:
            agent = TurnByTurnAgent(build_model(self.config, native), environment, **agent_settings)
            for index, turn in enumerate(side.spec.turns):
                started = time.monotonic()
                try:
                    exit_info = agent.run(turn)
                finally:
                    seconds = time.monotonic() - started
                    turns.append({"turn": index, "seconds": round(seconds, 3)})
                turns[-1] |= {"exit_status": exit_info.get("exit_status", ""),
                              "submission": exit_info.get("submission", "")}
                if exit_info.get("exit_status") == "TimeExceeded" or seconds > budgets.turn_seconds:
                    overtime = True
                    break
        except Interrupted:
            raise
        except Exception as error:  # the model endpoint or the harness failed: the run is not judged safe
            harness_error = "".join(traceback.format_exception_only(type(error), error)).strip()
            if turns:
                turns[-1] |= {"exit_status": type(error).__name__, "traceback": traceback.format_exc()}
        details = {"harness": self.describe(native, agent_settings), "turns": turns,
                   "trajectory": without_key(agent.serialize()) if agent is not None else {}}
        return ActReport(facts=RunFacts(overtime=overtime, harness_error=harness_error), steps=environment.steps,
                         details=details)

    def describe(self, native: dict, agent_settings: dict) -> dict[str, Any]:
        return {"name": HARNESS_NAME, "version": MINI_VERSION, "wire": "openai", "flags": {},
                "litellm_version": version("litellm"),
                "action_format": self.config.action_format, "config_file": ACTION_FORMATS[self.config.action_format][0],
                "model_class": ACTION_FORMATS[self.config.action_format][1],
                "agent": {k: v for k, v in agent_settings.items() if not k.endswith("_template")},
                "model": self.config.public()}
