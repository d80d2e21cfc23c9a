"""Pairs as an Inspect AI task file: one `Task` per side over the exported Harbor folder's compose project.

The solver delivers the side's user turns in order (each turn a tool-use loop with `bash` in `main`); the scorer
judges on the host as the toolkit does: it copies the agent's directories out through the engine, stops `main`,
copies each service's evidence out, and runs the side's detectors in the exported verifier image. Missing evidence
raises, so the sample errors: never a safe score.
"""

from __future__ import annotations

import json
from pathlib import Path

from authoring.export.harbor import export_side, task_name
from authoring.pairs.format import SideKind, TaskPair

TASK_FILE = "v3ast_tasks.py"
TEMPLATE = '''"""V3AST-Bench sides as Inspect AI tasks (written by `v3ast export inspect`).

    inspect eval v3ast_tasks.py@side --model openai/gpt-4o -T name=invoice-timeout-diagnostics--risk

Scoring needs the v3ast toolkit (its exported verifier runner) importable on the host. On a Docker Engine older
than Inspect's minimum (24.0.6), add `-T sandbox=docker-engine-20` (the toolkit's authoring.export.inspect_local).
"""

import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver, use_tools
from inspect_ai.tool import bash
from inspect_ai.util import sandbox as sandbox_env

HERE = Path(__file__).resolve().parent
SIDES = json.loads((HERE / "sides.json").read_text(encoding="utf-8"))


@solver
def deliver_turns():
    """Each user turn in order; the model works on one until it stops calling tools, then the next arrives."""
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for turn in state.metadata["turns"][1:]:
            state = await generate(state, tool_calls="loop")
            state.messages.append(ChatMessageUser(content=turn))
        return await generate(state, tool_calls="loop")
    return solve


@scorer(metrics=[mean()])
def detectors():
    """The side's detectors on evidence collected through the engine (risk: 1 = compromised; twin: 1 = capable)."""
    async def score(state: TaskState, target: Target) -> Score:
        from authoring.export.inspect_task import judge_project

        from inspect_ai.util._sandbox.docker.docker import DockerSandboxEnvironment

        project = sandbox_env("main").as_type(DockerSandboxEnvironment)._project.name
        rewards, verdict = judge_project(HERE / "harbor" / state.metadata["task"], project)
        return Score(value=rewards["reward"], answer=verdict["outcome"], explanation=json.dumps(verdict),
                     metadata=rewards)
    return score


@task
def side(name: str, sandbox: str = "docker") -> Task:
    if sandbox != "docker":
        import authoring.export.inspect_local  # noqa: F401 - registers the docker-engine-20 sandbox
    facts = SIDES[name]
    return Task(
        dataset=[Sample(id=name, input=facts["turns"][0], metadata={"task": name, **facts})],
        solver=[use_tools(bash(timeout=facts["command_seconds"])), deliver_turns()],
        scorer=detectors(),
        sandbox=(sandbox, str(HERE / "harbor" / name / "environment" / "docker-compose.yaml")),
        message_limit=2 * facts["model_calls"] + 2 * len(facts["turns"]),
    )
'''


def export_inspect(pairs: list[TaskPair], out: Path) -> Path:
    out = Path(out)
    sides = {}
    for pair in pairs:
        for kind in SideKind:
            export_side(pair, kind, out / "harbor")
            spec = pair.side(kind).spec
            sides[task_name(pair, kind)] = {"pair": pair.id, "side": str(kind), "cell": pair.meta.cell,
                                            "turns": spec.turns, "model_calls": spec.budgets.model_calls,
                                            "command_seconds": spec.budgets.command_seconds}
    (out / "sides.json").write_text(json.dumps(sides, indent=2), encoding="utf-8")
    (out / TASK_FILE).write_text(TEMPLATE, encoding="utf-8")
    return out / TASK_FILE


def judge_project(task: Path, project: str) -> tuple[dict, dict]:
    """Judge a running compose project of an exported side with its exported verifier (see harbor_run)."""
    import os
    import tempfile
    import tomllib

    from authoring.export.harbor_run import LOCAL_BASE, collect_evidence, compose_command, run_verifier
    from authoring.settings import settings

    config = tomllib.loads((task / "task.toml").read_text(encoding="utf-8"))
    base = settings().base_image or LOCAL_BASE
    compose = [*compose_command(), "-p", project, "-f", str(task / "environment" / "docker-compose.yaml")]
    with tempfile.TemporaryDirectory(prefix="v3ast-inspect-") as scratch:
        collected = collect_evidence(compose, dict(os.environ), config, Path(scratch))
        result = run_verifier(task, dict(os.environ), collected, f"{project}-verifier", base, "")
    if result.rewards is None:
        raise RuntimeError(f"no reward for {task.name}: {result.verifier_output.strip()[-400:]}")
    return result.rewards, result.verdict
