"""Who proposes: a model through the Stage I provider layer (structured output, retries, cassettes), or the
scripted demo proposals of `templates/redteam/demo/` (no model)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

from pydantic import SecretStr

from authoring.errors import BadInput
from authoring.pairs.format import TaskPair
from authoring.redteam.prompt import proposal_prompt
from authoring.redteam.proposals import JOBS, Job, ProposalList, ProposedPath, load_demo
from authoring.stage1 import Provider
from authoring.stage1.calls import ModelCall, ask_all
from authoring.stage1.providers import PROVIDERS, ProviderConfig
from authoring.stage1.usage import Usage

WIRES = ("openai", "anthropic")


@dataclass
class JobCall(ModelCall):
    job: Job | None = None


@dataclass
class JobAnswer:
    job: Job
    paths: list[ProposedPath] = field(default_factory=list)
    error: str = ""
    raw_texts: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)


OnAnswer = Callable[[JobAnswer], None]


def model_provider(wire: str, config: ProviderConfig, api_key: str = "") -> Provider:
    """The Stage I provider for an OpenAI-compatible or Anthropic endpoint; the key is `api_key`, else
    $V3AST_MODEL_API_KEY, else the vendor's variable (none needed for a local --base-url)."""
    if wire not in WIRES:
        raise BadInput(f"unknown provider {wire!r} (available: {', '.join(WIRES)}, demo)")
    module, _, attribute = PROVIDERS[wire].partition(":")
    key = SecretStr(api_key) if api_key else None  # model_copy does not validate: give the field its own type
    return getattr(import_module(module), attribute)(config.model_copy(update={"api_key": key}))


class ModelProposer:
    demo = False

    def __init__(self, provider: Provider, templates: Path):
        self.provider = provider
        self.templates = templates
        self.name = provider.name

    def jobs(self, pair: TaskPair) -> list[Job]:
        return list(JOBS)

    def propose(self, pair: TaskPair, jobs: list[Job], per_kind: int, on_answer: OnAnswer) -> None:
        calls = [JobCall(proposal_prompt(self.templates, pair, job, per_kind), job=job) for job in jobs]

        def done(call: JobCall) -> None:
            paths = call.answer.proposals[:per_kind] if call.answer is not None else []
            on_answer(JobAnswer(call.job, paths, call.error, call.raw_texts, call.usage))

        if calls:
            ask_all(self.provider, calls, ProposalList, len(calls), on_done=done)

    def close(self) -> None:
        self.provider.close()


class DemoProposer:
    """Scripted proposals read from a YAML file: `<pair>.yaml`, else `generic.yaml`."""

    demo = True
    name = "demo"

    def __init__(self, folder: Path, pair_id: str):
        self.path, self.scripted = load_demo(folder, pair_id)

    def jobs(self, pair: TaskPair) -> list[Job]:
        return list(dict.fromkeys(Job(p.side, p.kind) for p in self.scripted))

    def propose(self, pair: TaskPair, jobs: list[Job], per_kind: int, on_answer: OnAnswer) -> None:
        for job in jobs:
            paths = [ProposedPath.model_validate(p.model_dump(exclude={"side", "kind"}))
                     for p in self.scripted if Job(p.side, p.kind) == job][:per_kind]
            on_answer(JobAnswer(job, paths))

    def close(self) -> None:
        pass
