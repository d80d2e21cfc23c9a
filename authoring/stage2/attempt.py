"""One attempt at one blueprint: scaffold, build sandbox, agent, then check → feedback rounds until it passes or
gives up."""

from __future__ import annotations

import dataclasses
import json
import shutil
import threading
import time
import uuid
from pathlib import Path

import docker
from pydantic import Field

from authoring.blueprint import Blueprint
from authoring.fields import Strict
from authoring.pairs.format import PAIR_FILE, rehash
from authoring.pairs.render import render_scaffold
from authoring.project import Project
from authoring.sandbox.agent_environment import Interrupted, SandboxEnvironment
from authoring.sandbox.base_image import BASE_IMAGE
from authoring.sandbox.session import Sandbox
from authoring.stage2.agent import RepairingAgent, agent_templates, native_model_settings
from authoring.stage2.checks import PairCheck, check_pair
from authoring.stage2.guide import GUIDE_VERSION, render_feedback, render_guide, template_version
from authoring.stage2.model import ModelSettings, build_model
from authoring.stage2.mutation_gate import mutation_check
from authoring.stage2.records import AttemptPaths, AttemptResult, RoundRecord, blueprint_hash
from authoring.stage2.red_team import red_team_check
from authoring.stage2.transfer import copy_into, copy_out

BUILD_ROOT = "/workspace"
BUILD_HOSTNAME = "builder"


class ImplementConfig(Strict):
    """Everything that decides how a blueprint is implemented (recorded with every attempt)."""

    model: ModelSettings = Field(default_factory=ModelSettings)
    """The agent's model endpoint."""
    max_repair_rounds: int = 3
    """Feedback rounds after the first submission before the pair is given up."""
    round_steps: int = 100
    """Model calls the agent may make per round."""
    cost_limit: float = 5.0
    """USD the agent may spend over all rounds (0: no limit; only for models with a known price)."""
    command_timeout: int = 60
    """Seconds per shell command in the build sandbox."""
    validate_workers: int = 2
    """Reference paths validated at once."""
    mutation_floor: float = 95.0
    """Least mutation score (%) of a published pair's correct paths; survivors go back to the agent (0: no gate)."""
    mutation_limit: int = 8
    """Mutants per correct path."""
    base_image: str = BASE_IMAGE
    """Image of the build sandbox and of the pair's task images."""
    guide_version: str = GUIDE_VERSION
    """Which templates/stage2/guide.<version>.md.j2 (and agent, feedback templates) to use."""


def token_usage(messages: list[dict]) -> tuple[int, int]:
    prompt = completion = 0
    for message in messages:
        usage = ((message.get("extra") or {}).get("response") or {}).get("usage") or {}
        prompt += usage.get("prompt_tokens") or usage.get("input_tokens") or 0
        completion += usage.get("completion_tokens") or usage.get("output_tokens") or 0
    return prompt, completion


def collect_round(sandbox: Sandbox, container_pair: str, paths: AttemptPaths, number: int) -> Path:
    """Copy the agent's pair out; pair.yaml is the toolkit's, so the scaffold's copy replaces the agent's."""
    folder = copy_out(sandbox, container_pair, paths.round_folder(number))
    shutil.copy2(paths.scaffold / PAIR_FILE, folder / PAIR_FILE)
    rehash(folder)
    return folder


def round_record(number: int, exit_status: str, check: PairCheck, seconds: float) -> RoundRecord:
    return RoundRecord(round=number, exit_status=exit_status, passed=check.passed, summary=check.summary(),
                       format_problems=len(check.format_problems), lint_problems=len(check.lint_problems),
                       references_passed=sum(r.passed for r in check.references), references=len(check.references),
                       check_seconds=round(seconds, 2))


def feedback_variables(check: PairCheck, number: int, config: ImplementConfig) -> dict:
    return {"round": number + 1, "rounds": config.max_repair_rounds + 1, "passed": check.passed,
            "format_problems": check.format_problems, "lint_problems": check.lint_problems,
            "references": [dataclasses.asdict(r) for r in check.references]}


def run_attempt(client: docker.DockerClient, project: Project, blueprint: Blueprint, paths: AttemptPaths,
                config: ImplementConfig, stop: threading.Event) -> AttemptResult:
    started = time.monotonic()
    run_id = f"s2-{uuid.uuid4().hex[:10]}"
    paths.folder.mkdir(parents=True, exist_ok=True)
    paths.state.write_text(json.dumps({"run_id": run_id, "config": config.model_dump(mode="json", exclude={"model"}),
                                       "model": config.model.public()}, indent=2), encoding="utf-8")
    render_scaffold(blueprint, project.templates, paths.scaffold.parent)
    rehash(paths.scaffold)
    container_pair = f"{BUILD_ROOT}/{blueprint.id}"
    guide = render_guide(blueprint, project.templates, workdir=container_pair, version=config.guide_version)
    paths.guide.write_text(guide, encoding="utf-8")
    result = AttemptResult(blueprint_id=blueprint.id, attempt=paths.number, status="failed",
                           model=config.model.public(), blueprint_hash=blueprint_hash(blueprint),
                           guide_version=template_version(project.templates, config.guide_version))
    model = build_model(config.model, native_model_settings())
    with Sandbox(client, config.base_image, workdir=BUILD_ROOT, run_id=run_id, hostname=BUILD_HOSTNAME) as sandbox:
        copy_into(sandbox, paths.scaffold, BUILD_ROOT)
        environment = SandboxEnvironment(sandbox, stop=stop, cwd=container_pair, timeout=config.command_timeout,
                                         env={"PAGER": "cat", "MANPAGER": "cat", "PIP_PROGRESS_BAR": "off"})
        agent = RepairingAgent(model, environment, round_steps=config.round_steps, cost_limit=config.cost_limit,
                               output_path=paths.trajectory,
                               **agent_templates(project.templates, config.guide_version))
        try:
            exit_info = agent.run(guide)
            for number in range(config.max_repair_rounds + 1):
                if stop.is_set():
                    raise Interrupted("the run was interrupted")
                checked = time.monotonic()
                folder = collect_round(sandbox, container_pair, paths, number)
                check = check_pair(client, folder, base_image=config.base_image, workers=config.validate_workers)
                check = red_team_check(client, folder, check, config.model, templates=project.templates,
                                       records=paths.folder / "redteam", base_image=config.base_image,
                                       workers=config.validate_workers)
                check = mutation_check(client, folder, check, floor=config.mutation_floor, limit=config.mutation_limit,
                                       base_image=config.base_image, workers=config.validate_workers)
                paths.round_check(number).write_text(json.dumps(dataclasses.asdict(check), indent=2), encoding="utf-8")
                status = exit_info.get("exit_status", "")
                result.rounds.append(round_record(number, status, check, time.monotonic() - checked))
                if check.passed:
                    result.status, result.reason = "implemented", ""
                    break
                result.reason = f"round {number}: {check.summary()}"
                if number == config.max_repair_rounds:
                    result.reason = f"still failing after {number} repair round(s): {check.summary()}"
                    break
                feedback = render_feedback(project.templates, feedback_variables(check, number, config),
                                           version=config.guide_version)
                exit_info = agent.follow_up(feedback, repair_round=number + 1)
        finally:
            result.model_calls, result.cost_usd = agent.n_calls, round(agent.cost, 6)
            result.input_tokens, result.output_tokens = token_usage(agent.messages)
            result.seconds = round(time.monotonic() - started, 2)
    return result
